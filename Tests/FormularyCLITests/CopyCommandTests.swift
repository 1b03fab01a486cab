import Foundation
import FormularyPostgres
import Testing

/// `copy --to DB` from the command line: SQLite → PostgreSQL → SQLite with the same audit
/// head, a log that verifies, and the same reports on all three; refusals and failures that
/// leave the target as it was.
@Suite struct CopyCommandTests {
    /// A registry with history: a type added twice and retired, a form, keyed imports with an
    /// update, two runs (the second carries results forward) with failures, a secure value,
    /// tokens.
    func populated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("visa.field", Fixtures.visaType.replacingOccurrences(of: "Visa\"", with: "Visa card\""))
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.mustRun("types", "retire", "visa")
        try sandbox.write("one.csv", """
            name,email,age,card,cvv
            Ada,ada@example.com,36,4111 1111 1111 1111,123
            Bob,bob@example,12,4111 1111 1111 1112,98765
            Cy,cy@example.com,40,,

            """)
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "one.csv")
        _ = try sandbox.run("validate")
        try sandbox.write("two.csv", "name,email,age\nCyrus,cy@example.com,17\nDee,dee@example.com,50\n")
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "two.csv")
        _ = try sandbox.run("validate")
        try sandbox.mustRun("tokens", "add", "ci", "--scope", "submit")
        try sandbox.mustRun("tokens", "add", "old", "--scope", "read")
        try sandbox.mustRun("tokens", "revoke", "old")
        return sandbox
    }

    /// What the commands show of a database: its head, runs, reports, entries, types, tokens.
    func views(_ sandbox: Sandbox, db: String) throws -> [String] {
        try [["audit", "head"], ["--format", "json", "runs", "list"], ["--format", "json", "report", "--run", "1"],
             ["--format", "json", "report"], ["--format", "json", "entries", "list", "--limit", "0"],
             ["types", "history", "visa"], ["tokens", "list"], ["history", "3"]].map { command in
            let result = try sandbox.run(["--db", db] + command)
            #expect(result.status == 0 || command.contains("history"), "\(command): \(result)")
            return result.stdout
        }
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs FORMULARY_TEST_POSTGRES_URL"))
    func sqliteToPostgreSQLAndBack() throws {
        let sandbox = try populated()
        let server = try ScratchServerDatabase()
        defer { withExtendedLifetime(server) {} }
        let original = try views(sandbox, db: sandbox.databasePath)
        #expect(original[0].hasPrefix("13 "), "the history's head: \(original[0])")

        let there = try sandbox.run("copy", "--to", server.url)
        #expect(there.status == 0, "\(there)")
        #expect(there.outputLines.contains { $0.hasPrefix("entries ") && $0.hasSuffix(" 4") }, "\(there)")
        #expect(there.stdout.hasSuffix("Both now have the audit head \(original[0])"), "\(there)")
        #expect(try views(sandbox, db: server.url) == original)
        let verify = try sandbox.run("--db", server.url, "audit", "verify", "--head", String(original[0].split(separator: " ")[1].dropLast()))
        #expect(verify.status == 0, "\(verify)")

        let back = try sandbox.run("--db", server.url, "copy", "--to", "back.db")
        #expect(back.status == 0, "\(back)")
        #expect(try views(sandbox, db: "back.db") == original)
        #expect(try sandbox.run("--db", "back.db", "audit", "verify").status == 0)
        #expect(try sandbox.run("audit", "verify").status == 0)

        // The server copy goes on: a third run there carries the copied results forward.
        let run = try sandbox.run("--db", server.url, "--format", "json", "validate")
        #expect(run.status == 1 && run.stdout.contains("\"entries_carried\":4"), "\(run)")
        // A second copy into the same server database is refused: it holds data now.
        let again = try sandbox.run("copy", "--to", server.url)
        #expect(again.status == 2 && again.stderr.contains("has the audit key of the database being copied"), "\(again)")
    }

    @Test func theSourceANonEmptyTargetAndAMissingFolderAreRefused() throws {
        let sandbox = try populated()
        let before = try sandbox.databaseFingerprint()
        let itself = try sandbox.run("copy", "--to", sandbox.databasePath)
        #expect(itself.status == 2, "\(itself)")
        #expect(itself.stderr.contains("has the audit key of the database being copied") && itself.stderr.contains("nothing was written"))

        let other = try Sandbox()
        try other.initDatabase()
        try other.mustRun("tokens", "add", "theirs", "--scope", "read")
        let theirs = try other.databaseFingerprint()
        let full = try sandbox.run("copy", "--to", other.databasePath)
        #expect(full.status == 2, "\(full)")
        #expect(full.stderr.contains("already holds data (tokens, audit records)"), "\(full)")
        #expect(try other.databaseFingerprint() == theirs)

        let nowhere = try sandbox.run("copy", "--to", "no/such/folder/copy.db")
        #expect(nowhere.status == 2 && nowhere.stderr.contains("the folder no/such/folder does not exist"), "\(nowhere)")
        #expect(nowhere.stderr.contains("--to") && !nowhere.stderr.contains("--db"), "the option to fix is --to: \(nowhere)")
        #expect(try sandbox.databaseFingerprint() == before)

        let missing = try sandbox.run("copy")
        #expect(missing.status == 2 && missing.stderr.contains("--to"), "\(missing)")
    }

    @Test func anUnreachableServerIsAnEnvironmentFailure() throws {
        let sandbox = try populated()
        let result = try sandbox.run("copy", "--to", "postgres://formulary@127.0.0.1:1/copy")
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("cannot reach the PostgreSQL server at 127.0.0.1:1"), "\(result)")
        #expect(result.stderr.contains("check the host and port in --to"), "\(result)")
    }

    /// A copy stopped by a failing disk at many points, each time: exit 3, no file left
    /// behind, the source unchanged.
    @Test func aCopyThatFailsLeavesNoTarget() throws {
        let sandbox = try populated()
        let before = try sandbox.databaseFingerprint()
        var failed = 0
        for step in stride(from: 5, through: 400, by: 35) {
            let result = try sandbox.spawn(["copy", "--to", "copy.db"], environment: ["FORMULARY_TEST_FAULT": "step:\(step):ioerr"])
            if result.status == 0 {
                try FileManager.default.removeItem(atPath: sandbox.path("copy.db"))
                continue
            }
            failed += 1
            #expect(result.status == 3, "step \(step): \(result)")
            #expect(result.stderr.contains("nothing was written"), "step \(step): \(result)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.path("copy.db")), "step \(step) left copy.db behind")
        }
        #expect(failed >= 5)
        #expect(try sandbox.databaseFingerprint() == before)
    }
}
