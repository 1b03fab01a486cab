import Foundation
import Testing

/// `impact FILE…` and `canonicalize --form NAME [--dry-run]` as a user runs them: outputs,
/// exit statuses, what is (not) written, and the unhappy paths.
@Suite struct ImpactCommandTests {
    static let strictCard = """
        # Proposed: only Visa cards.
        field credit-card
        label "Card"
        normalize strip " -"
        mask "0000 0000 0000 0000"
        checksum luhn   message "Card number is not valid"
        pattern /4.*/ as visa-only   message "Only Visa cards are taken"
        accept "4111 1111 1111 1111"
        reject "5500 0000 0000 0004" visa-only

        """

    /// A database with the sign-up form, four entries (one Mastercard, one with a bad
    /// Luhn digit, one with spaced-out card and cvv digits) and one validation run.
    static func sandbox(_ backend: TestBackend, validate: Bool = true) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("signups.csv", """
            name,email,age,card,cvv
            Ada Lovelace,ada@example.com,36,4111 1111 1111 1111,123
            Grace Hopper,grace@example.com,40,5500 0000 0000 0004,456
            Alan Turing,alan@example.com,41,4111 1111 1111 1112,789
            Edsger Dijkstra,edsger@example.com,50,4111111111111111,9 8 7

            """)
        try sandbox.mustRun("import", "--form", "signup", "signups.csv")
        if validate { _ = try sandbox.run("validate") }
        try sandbox.write("proposed/credit-card.field", strictCard)
        return sandbox
    }

    @Test(arguments: TestBackend.all) func impactPrintsTheChangesAndWritesNothing(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        let before = try sandbox.databaseFingerprint()
        let beforeBytes = backend == .sqlite ? try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)) : nil
        let auditBefore = try sandbox.auditRecords().count
        let result = try sandbox.run("impact", "proposed/credit-card.field")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.outputLines == [
            "Judged 4 entries of form 'signup' with the proposed definitions, against each entry's latest result:",
            "  newly failing  1",
            "  fixed          0",
            "  unchanged      3",
            "",
            "FIELD  RULE       NEWLY FAILING  FIXED",
            "card   visa-only  1              0",
            "",
            "Examples (entry ids; see 'formulary entries show ID'):",
            "ENTRY  FIELD  RULE       CHANGE",
            "2      card   visa-only  newly failing",
        ], "\(result)")
        let json = try sandbox.run("--format", "json", "impact", "proposed/credit-card.field")
        #expect(json.status == 0)
        #expect(json.stdout == #"{"entries_checked":4,"newly_failing":1,"fixed":0,"unchanged":3,"rules":[{"field":"card","rule":"visa-only","newly_failing":1,"fixed":0}],"examples":[{"entry":2,"field":"card","rule":"visa-only","change":"newly_failing"}]}"# + "\n", "\(json)")
        #expect(try sandbox.databaseFingerprint() == before, "impact changed the database")
        if let beforeBytes { #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)) == beforeBytes, "impact changed the file") }
        #expect(try sandbox.auditRecords().count == auditBefore, "impact wrote to the audit log")
    }

    @Test(arguments: TestBackend.all) func impactOnEntriesNeverValidatedSaysSo(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend, validate: false)
        let result = try sandbox.run("impact", "proposed/credit-card.field")
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.contains("4 of them had no recorded result and were compared with the current definitions."), "\(result)")
        #expect(result.outputLines.contains("  newly failing  1"), "\(result)")
    }

    @Test(arguments: TestBackend.all) func impactUnhappyPaths(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        // A broken plugin file: file:line:column, exit 2, nothing on standard output.
        try sandbox.write("proposed/bad.field", "field bad\nlength 3..1\n")
        let bad = try sandbox.run("impact", "proposed/bad.field")
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stdout.isEmpty)
        #expect(bad.errorLines.first == "formulary: error: nothing was judged: the file has problems", "\(bad)")
        #expect(bad.stderr.contains("proposed/bad.field:2:9: error: '..' is not a range operator"), "\(bad)")
        // A form in a plugin folder that cannot be used, with or without the proposal.
        try sandbox.write("broken/signup.form", "form signup\nfield card no-such-type\n")
        let brokenForm = try sandbox.run("--plugins", "broken", "impact", "proposed/credit-card.field")
        #expect(brokenForm.status == 2 && brokenForm.stdout.isEmpty, "\(brokenForm)")
        #expect(brokenForm.errorLines.first == "formulary: error: form 'signup' cannot be used; nothing was judged", "\(brokenForm)")
        #expect(brokenForm.stderr.contains("broken/signup.form:2:12: error: unknown type 'no-such-type'"), "\(brokenForm)")
        // A missing file, no file at all.
        let missing = try sandbox.run("impact", "proposed/nope.field")
        #expect(missing.status == 2 && missing.stderr.contains("proposed/nope.field"), "\(missing)")
        let none = try sandbox.run("impact")
        #expect(none.status == 2 && none.stderr.contains("missing at least one FILE"), "\(none)")
        // Nothing stored uses the proposal.
        try sandbox.write("proposed/shoe.field", "field shoe-size\ninteger\naccept \"42\"\n")
        let unused = try sandbox.run("impact", "proposed/shoe.field")
        #expect(unused.status == 0)
        #expect(unused.outputLines == ["No stored entries belong to a form that the proposed files change; nothing to compare."])
        // No database: exit 3, and none is created.
        let nodb = try sandbox.run(["impact", "proposed/credit-card.field"], environment: ["FORMULARY_DB": sandbox.path("none.db")])
        #expect(nodb.status == 3, "\(nodb)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("none.db")))
    }

    @Test(arguments: TestBackend.all) func canonicalizeRewritesCountsAndAudits(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        let before = try sandbox.databaseFingerprint()
        let beforeBytes = backend == .sqlite ? try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)) : nil
        let dry = try sandbox.run("canonicalize", "--form", "signup", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.outputLines == [
            "Dry run: 1 entry of 4 in form 'signup' would get a new version; nothing was written.",
            "FIELD  TYPE         TO REWRITE  CANONICAL  INVALID  KEPT",
            "name   name         0           4          0        0",
            "email  email        0           4          0        0",
            "age    age          0           4          0        0",
            "card   credit-card  1           2          1        0",
            "cvv    cvv          1           3          0        0",
        ], "\(dry)")
        #expect(try sandbox.databaseFingerprint() == before, "a dry run wrote")
        if let beforeBytes { #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)) == beforeBytes, "a dry run changed the file") }

        let done = try sandbox.run("--format", "json", "canonicalize", "--form", "signup")
        #expect(done.status == 0, "\(done)")
        #expect(done.stdout.hasPrefix(#"{"form":"signup","dry_run":false,"entries_checked":4,"entries_rewritten":1,"fields":[{"field":"name","type":"name","rewritten":0,"canonical":4,"invalid":0,"kept":0},"#), "\(done)")
        let entry = try sandbox.entry(4)
        #expect(entry["version"] as? Int == 2)
        #expect((entry["values"] as? [String: Any])?["card"] as? String == "4111 1111 1111 1111")
        #expect((entry["values"] as? [String: Any])?["cvv"] as? String == "•••")
        #expect(try sandbox.entry(3)["version"] as? Int == 1, "the invalid card is not touched")
        let history = try sandbox.run("history", "4")
        #expect(history.outputLines.first == "Entry 4 of form signup, version 2", "\(history)")
        #expect(history.stdout.contains("entry version 1 (since replaced)"), "\(history)")
        let versions = history.outputLines.dropFirst().prefix(2).map { $0.replacing(/\d{4}-\d{2}-\d{2}T[0-9:.]+Z/, with: "T") }
        #expect(versions == ["  version 1  T  tester  import of signups.csv", "  version 2  T  tester  canonicalize"], "\(history)")
        let audit = try sandbox.auditRecords()
        let last = try #require(audit.last)
        #expect(last["action"] as? String == "canonicalize")
        let everything = withoutTimesAndHashes(try sandbox.run("audit").stdout + done.stdout + dry.stdout)
        #expect(!everything.contains("987") && !everything.contains("9 8 7"), "a secure value leaked")
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
    }

    @Test(arguments: TestBackend.all) func canonicalizeUnhappyPaths(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        let unknown = try sandbox.run("canonicalize", "--form", "signp")
        #expect(unknown.status == 2 && unknown.stdout.isEmpty)
        #expect(unknown.errorLines == ["formulary: error: unknown form 'signp'; did you mean 'signup'?"], "\(unknown)")
        let missing = try sandbox.run("canonicalize")
        #expect(missing.status == 2 && missing.stderr.contains("missing --form NAME"), "\(missing)")
        // A broken form file in a plugin folder: its diagnostic, with file:line:column.
        try sandbox.write("broken/signup.form", "form signup\nfield card no-such-type\n")
        let broken = try sandbox.run("--plugins", "broken", "canonicalize", "--form", "signup")
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.stderr.contains("broken/signup.form:2:"), "\(broken)")
        // An empty store.
        let empty = try Sandbox(backend: backend)
        try empty.databaseWithSignupForm()
        let nothing = try empty.run("canonicalize", "--form", "signup")
        #expect(nothing.status == 0, "\(nothing)")
        #expect(nothing.outputLines.first == "Nothing to rewrite: every valid value in form 'signup' is already canonical.")
        try empty.write("proposed/credit-card.field", Self.strictCard)
        let noEntries = try empty.run("--format", "json", "impact", "proposed/credit-card.field")
        #expect(noEntries.status == 0, "\(noEntries)")
        #expect(noEntries.stdout == #"{"entries_checked":0,"newly_failing":0,"fixed":0,"unchanged":0,"rules":[],"examples":[]}"# + "\n")
    }
}
