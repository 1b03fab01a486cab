import Foundation

/// Plugin and data files the database tests share.
enum Fixtures {
    static let signupForm = """
        # A small sign-up form over built-in types.
        form signup
        label "Sign up"
        field name   name          required
        field email  email         required
        field age    age(min: 18)
        field card   credit-card
        field cvv    cvv

        """

    static let visaType = """
        field visa extends credit-card
        label "Visa"
        pattern /4.*/ as visa-prefix message "Visa cards start with 4"
        accept "4111 1111 1111 1111"
        reject "5500 0000 0000 0004" visa-prefix

        """

    /// A type whose own self-test fails: "456" passes the mask it claims to fail.
    static let failingSelfTest = """
        field three
        mask "000"
        accept "123"
        reject "456" mask

        """
}

extension Sandbox {
    /// A database with the sign-up form added.
    func databaseWithSignupForm() throws {
        try initDatabase()
        try write("signup.form", Fixtures.signupForm)
        try mustRun("forms", "add", "signup.form")
    }

    /// The entries `entries list --format json` reports (all of them).
    func entries() throws -> [[String: Any]] {
        let result = try mustRun("--format", "json", "entries", "list", "--limit", "0")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }

    /// One entry as `entries show ID --format json` prints it.
    func entry(_ id: Int) throws -> [String: Any] {
        let result = try mustRun("--format", "json", "entries", "show", String(id))
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The audit log as `audit --format json` prints it.
    func auditRecords() throws -> [[String: Any]] {
        let result = try mustRun("--format", "json", "audit")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
    }
}

/// `text` without ISO 8601 times and hexadecimal hashes (runs of 8 or more hex digits), whose
/// digits can hold any short number: for checking that a short secure value such as a cvv
/// is not in an output (a "987" inside a hash or the milliseconds of a time is no leak).
func withoutTimesAndHashes(_ text: String) -> String {
    text.replacing(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/, with: "<time>")
        .replacing(/[0-9a-f]{8,}/, with: "<hash>")
}
