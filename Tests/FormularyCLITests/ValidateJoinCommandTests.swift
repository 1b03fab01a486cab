#if canImport(Glibc)
import Glibc
#endif
import Foundation
import FormularyPostgres
import Testing

/// `validate --join RUN` as processes on one PostgreSQL database: a starter and two joiners,
/// one of them SIGKILLed while it holds a chunk; the run completes once, with the results of
/// a single-process run on a copy of the same data, row by row, entry ids alike. Polls are
/// bounded waits for something to happen, never assertions about time.
@Suite(.serialized) struct ValidateJoinCommandTests {
    /// Sign-ups with defects (and a member form with `unique`), the same rows every time.
    static func csv(rows: Int) -> String {
        var lines = ["name,email,age,card,cvv"]
        for i in 0..<rows {
            let name = i % 37 == 0 ? "" : "Person \(i)"
            let email = i % 23 == 0 ? "not-an-email" : "p\(i)@example.com"
            let age = i % 19 == 0 ? "16" : String(18 + i % 60)
            let card = i % 29 == 0 ? "4111 1111 1111 1112" : "4111 1111 1111 1111"
            let cvv = i % 31 == 0 ? "12" : "123"
            lines.append("\(name),\(email),\(age),\(card),\(cvv)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let memberForm = """
        form member
        field name   name   required
        field email  email  required
        unique email

        """

    static func members() -> String {
        "name,email\n" + (0..<60).map { "M\($0),m\($0 % 17)@example.com" }.joined(separator: "\n") + "\n"
    }

    /// The same forms and imports, so the entries get the same ids.
    func load(_ sandbox: Sandbox) throws {
        try sandbox.databaseWithSignupForm()
        try sandbox.write("member.form", Self.memberForm)
        try sandbox.mustRun("forms", "add", "member.form")
        try sandbox.write("signups.csv", Self.csv(rows: 2400))
        try sandbox.write("members.csv", Self.members())
        try sandbox.mustRun("import", "--form", "signup", "signups.csv")
        try sandbox.mustRun("import", "--form", "member", "members.csv")
    }

    /// A run's results, by entry and failed rule's content (rule ids follow the order
    /// processes commit in), sorted here rather than by either database's collation.
    func results(_ sandbox: Sandbox, run: String) throws -> [String] {
        try sandbox.query("""
            SELECT r.entry_id, r.entry_version, f.name, rr.field, rr.type, rr.rule, rr.severity, rr.message
            FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id JOIN forms AS f ON f.id = rr.form_id
            WHERE r.run_id = \(run)
            """).map { $0.map { $0 ?? "-" }.joined(separator: "|") }.sorted()
    }

    func counts(_ sandbox: Sandbox, run: String) throws -> [String] {
        try sandbox.query("""
            SELECT f.name, rf.entries_checked, rf.entries_invalid, rf.entries_warned, rf.errors, rf.warnings, rf.judged_through
            FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id WHERE rf.run_id = \(run)
            """).map { $0.map { $0 ?? "-" }.joined(separator: "|") }.sorted()
    }

    /// `formulary ARGUMENTS…` started in the sandbox, its standard output and error in files.
    final class Started {
        let process = Process()
        let out: URL
        let err: URL

        init(_ sandbox: Sandbox, _ arguments: [String], name: String, environment: [String: String]) throws {
            out = sandbox.root.appendingPathComponent("\(name).out")
            err = sandbox.root.appendingPathComponent("\(name).err")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: try FormularyProcess.executable.get())
            process.arguments = arguments
            process.environment = sandbox.environment.merging(environment) { $1 }
            process.currentDirectoryURL = sandbox.root
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            try process.run()
        }

        var stdout: String { (try? String(contentsOf: out, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

        func wait() -> Int32 {
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    }

    struct Stuck: Error, CustomStringConvertible { var description: String }

    /// Polls `condition` every 50 ms, up to about a minute: a bounded wait, not a timing.
    func poll(_ what: String, _ condition: () throws -> Bool) throws {
        for _ in 0..<1200 {
            if try condition() { return }
            usleep(50_000)
        }
        throw Stuck(description: "gave up waiting for \(what)")
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs PostgreSQL (FORMULARY_TEST_POSTGRES_URL; make test starts one)"))
    func threeProcessesOneKilledCompleteTheRunOnceWithOneProcesssResults() throws {
        let single = try Sandbox()   // SQLite: one process, no chunks
        try load(single)
        let singleRun = try single.run("validate")
        #expect(singleRun.status == 1, "the data has defects")

        let shared = try Sandbox(backend: .postgres)
        try load(shared)
        // Small chunks, a short lease, and a pause per chunk so that the joiner certainly
        // holds a chunk when it is killed (0.4 s: with 0.1 s the starter's workers had taken
        // every chunk before a joiner started on a loaded machine, and it joined to find none).
        let environment = ["FORMULARY_CHUNK_SIZE": "100", "FORMULARY_CHUNK_LEASE": "1",
                           "FORMULARY_TEST_CHUNK_PAUSE": "0.4"]
        let starter = try Started(shared, ["validate"], name: "starter", environment: environment)
        var runID = ""
        try poll("the starter to print its run") {
            if let range = starter.stderr.range(of: "--join ") {
                runID = String(starter.stderr[range.upperBound...].prefix { $0.isNumber })
            }
            return !runID.isEmpty || !starter.process.isRunning
        }
        #expect(starter.stderr.hasPrefix("Run \(runID) started; other processes can help with 'formulary validate --join \(runID)'."))
        let doomed = try Started(shared, ["validate", "--join", runID], name: "doomed", environment: environment)
        let helper = try Started(shared, ["validate", "--join", runID], name: "helper", environment: environment)
        let doomedWorker = "%:\(doomed.process.processIdentifier)"
        try poll("the doomed joiner to commit a chunk") {
            try shared.query("SELECT count(*) FROM run_chunk_commits WHERE worker LIKE '\(doomedWorker)'")[0][0] != "0"
                || !doomed.process.isRunning
        }
        #expect(doomed.process.isRunning, "killed midway, not after it ran out of chunks: \(doomed.stdout)")
        kill(doomed.process.processIdentifier, SIGKILL)
        #expect(doomed.wait() == SIGKILL)

        #expect(helper.wait() == 0, "helper: \(helper.stderr)")
        #expect(helper.stdout.hasPrefix("Joined run \(runID): "))
        #expect(starter.wait() == 1, "the starter exits as validate does: \(starter.stderr)")
        #expect(starter.stdout.hasPrefix("Run \(runID) complete: 2,460 entries"), "\(starter.stdout)")

        // The killed joiner committed before it died, and a chunk it held was claimed again
        // (by the starter or the helper: their shares depend on the machine's pace).
        let workers = try shared.query("SELECT DISTINCT worker FROM run_chunk_commits WHERE run_id = \(runID)").map { $0[0] ?? "" }
        #expect(workers.contains { $0.hasSuffix(":\(doomed.process.processIdentifier)") })
        let retaken = try shared.query("SELECT count(*) FROM run_chunks WHERE run_id = \(runID) AND claims > 1")
        #expect(retaken[0][0] != "0", "a chunk the killed joiner held was taken over after its lease")
        #expect(try shared.query("SELECT count(*) FROM run_chunks WHERE run_id = \(runID) AND state <> 'done'")[0][0] == "0")

        // Complete, once: one end record, and the results of the single process, row by row.
        #expect(try shared.query("SELECT status FROM runs WHERE id = \(runID)")[0][0] == "complete")
        let ends = try shared.query("SELECT count(*) FROM audit_log WHERE action = 'validate' AND subject = '\(runID)'")
        #expect(ends[0][0] == "1")
        let expected = try results(single, run: "1"), actual = try results(shared, run: runID)
        #expect(expected.count > 300)
        let difference = zip(actual, expected).first { $0 != $1 }
        #expect(difference == nil, "first difference: shared \(difference?.0 ?? "") single \(difference?.1 ?? "")")
        #expect(actual.count == expected.count)
        #expect(try counts(shared, run: runID) == counts(single, run: "1"))
        #expect(try shared.run("audit", "verify").status == 0)

        // The run is over: joining it now is refused, and nothing changes.
        let late = try shared.run("validate", "--join", runID)
        #expect(late.status == 2)
        #expect(late.stderr.contains("run \(runID) is complete; only a running run can be joined"))
    }

    @Test func joinIsRefusedOnSQLiteAndWithOptionsTheRunDecides() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let sqlite = try sandbox.run("validate", "--join", "1")
        #expect(sqlite.status == 2)
        #expect(sqlite.stderr.contains("--join needs a PostgreSQL store"))
        let mixed = try sandbox.run("validate", "--join", "1", "--all")
        #expect(mixed.status == 2)
        #expect(mixed.stderr.contains("--all cannot be used with --join"))
        let bad = try sandbox.run("validate", "--join", "0")
        #expect(bad.status == 2)
    }
}
