import Foundation
import FormularyStore
import Testing

/// The kinds of database the backend-neutral CLI tests run on: SQLite always, PostgreSQL
/// when a test server is given (`FORMULARY_TEST_POSTGRES_URL`, set by
/// `scripts/with-pg-cluster.sh` and `make test`). Use as `@Test(arguments: TestBackend.all)`
/// and make the sandbox with ``Sandbox/init(backend:)``.
enum TestBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    /// The test server's URL (a role that may create databases), or nil.
    static let serverURL: String? = {
        let value = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"] ?? ""
        return value.isEmpty ? nil : value
    }()

    /// The backends this run can test: PostgreSQL only with a server.
    static var all: [TestBackend] { serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
}

/// A new, empty database on the test server, dropped when the value is released (the
/// sandbox that made it holds it to its own end).
final class ScratchServerDatabase {
    let name: String
    let url: String
    private let admin: PostgresConnection

    init() throws {
        guard let base = TestBackend.serverURL else {
            throw PostgresError(kind: .misuse, message: "no test server: FORMULARY_TEST_POSTGRES_URL is not set")
        }
        name = "formulary_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        admin = try PostgresConnection(url: base)
        // A language's collation where the server has ICU, as in the store's tests: a statement
        // sorting names without COLLATE "C" then fails its test.
        do {
            try admin.executeScript("""
                CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'
                """)
        } catch {
            try admin.executeScript("CREATE DATABASE \(name)")
        }
        url = Self.url(base, database: name)
    }

    deinit {
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `base` with its database replaced by `database`.
    static func url(_ base: String, database: String) -> String {
        guard let scheme = base.range(of: "://") else { return base }
        let rest = base[scheme.upperBound...]
        let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
        return String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + database + rest[queryStart...]
    }

    /// Runs `sql` on the database (from outside Formulary, as `psql` would) and returns
    /// its rows as text (nil for NULL).
    func query(_ sql: String) throws -> [[String?]] {
        let connection = try PostgresConnection(url: url)
        return try connection.executeOnce(sql).map { row in
            try (0..<row.columnCount).map { column in try row.optionalString(column) }
        }
    }
}
