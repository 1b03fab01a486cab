import Foundation
import FormularyStore
import FormularyPostgres
import Testing

/// The PostgreSQL server stopping in the middle of a command, for real: each test runs its own
/// throw-away cluster (`scripts/pg-cluster.sh` with a state file of its own), stops it at once
/// (`halt`: `pg_ctl stop -m immediate`, as a crash would) while the command works, and starts
/// it again. An import then exits 3 with nothing of it written; a validation run exits 3, reads
/// as incomplete, and the next run completes. The shared test cluster is never stopped.
@Suite(.serialized, .enabled(if: TestBackend.serverURL != nil, "needs PostgreSQL (FORMULARY_TEST_POSTGRES_URL)"))
struct ServerStopTests {
    /// A cluster of the test's own, stopped and removed when released.
    final class OwnCluster {
        let state: String
        let url: String
        static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/pg-cluster.sh").path

        init() throws {
            state = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-own-cluster-\(UUID().uuidString)").path
            url = try Self.script("start", state: state)
        }

        deinit { _ = try? Self.script("stop", state: state) }

        /// Stops the server at once, keeping its data.
        func halt() throws { _ = try Self.script("halt", state: state) }
        /// Starts it again on the same port.
        func resume() throws { _ = try Self.script("resume", state: state) }

        /// Runs `scripts/pg-cluster.sh COMMAND` and returns what it printed. Spawned and
        /// reaped by hand: Foundation's `Process` left this child a zombie on a test thread.
        @discardableResult
        static func script(_ command: String, state: String) throws -> String {
            let output = state + ".out"
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            var environment = ProcessInfo.processInfo.environment
            environment["FORMULARY_PG_CLUSTER_STATE"] = state
            // Every acknowledged commit survives the halt (the shared cluster commits asynchronously).
            environment["FORMULARY_PG_CLUSTER_COMMITS"] = "durable"
            // The server started through the script must not inherit the test process's many open
            // files (PostgreSQL refuses to start when too few descriptors are left to it): a shell
            // closes every descriptor above 2, then runs the script.
            let closing = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-" 2>/dev/null; done; exec /bin/bash "$0" "$1""#
            let argv: [UnsafeMutablePointer<CChar>?] = (["/bin/bash", "-c", closing, scriptPath, command] as [String])
                .map { strdup($0) } + [nil]
            let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/bash", &actions, nil, argv, envp) == 0 else {
                throw SetupError(description: "cannot run scripts/pg-cluster.sh")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            let printed = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            unlink(output)
            guard status == 0 else {
                throw SetupError(description: "scripts/pg-cluster.sh \(command) failed (wait status \(status))")
            }
            return printed.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    struct SetupError: Error, CustomStringConvertible { var description: String }

    /// A command running on another thread while the test watches the server.
    final class Background: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var outcome: Result<ProcessResult, any Error>?

        init(_ sandbox: Sandbox, _ arguments: [String]) {
            let environment = sandbox.environment, root = sandbox.root
            Thread.detachNewThread { [self] in
                outcome = Result { try FormularyProcess.run(arguments, environment: environment, directory: root, timeout: 120) }
                done.signal()
            }
        }

        func result() throws -> ProcessResult {
            done.wait()
            return try outcome!.get()
        }
    }

    /// Polls `sql` (one integer) on the server until `until` holds, for at most a minute.
    func wait(for sql: String, on url: String, until: (Int64) -> Bool) throws {
        let connection = try PostgresConnection(url: url)
        for _ in 0..<6000 {
            if until(try connection.scalarInt64(sql) ?? 0) { return }
            usleep(10_000)
        }
        throw SetupError(description: "waited a minute for: \(sql)")
    }

    func sandbox(on cluster: OwnCluster, entries: Int) throws -> Sandbox {
        let sandbox = try Sandbox()
        sandbox.environment["FORMULARY_DB"] = cluster.url
        try sandbox.databaseWithSignupForm()
        var csv = "name,email,age\n"
        for i in 0..<entries { csv += "Ada \(i),ada\(i)@example.com,\(i % 5 == 0 ? 17 : 30 + i % 60)\n" }
        try sandbox.write("big.csv", csv)
        return sandbox
    }

    /// `serve` outlives a restart of its PostgreSQL server: while the server is down its
    /// answers are errors, and once the server is back it answers again, with what changed
    /// meanwhile (a type added from the command line), without being restarted itself.
    @Test func serveAnswersAgainOnceTheServerIsBack() throws {
        let cluster = try OwnCluster()
        let sandbox = try Sandbox()
        sandbox.environment["FORMULARY_DB"] = cluster.url
        try sandbox.mustRun("init")
        let server = try ServeCommandTests.Server(sandbox)
        let check = Array(#"{"type": "email", "values": ["ada@example.com"]}"#.utf8)
        #expect(try HTTPConnection(port: server.port).exchange("POST", "/v1/check", body: check).status == 200)

        try cluster.halt()
        let down = try HTTPConnection(port: server.port).exchange("GET", "/v1/types")
        #expect(down.status >= 500, "\(down.status) \(down.text)")

        try cluster.resume()
        _ = try sandbox.write("zip5.field", "field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n")
        try sandbox.mustRun("types", "add", "zip5.field")
        let back = try HTTPConnection(port: server.port).exchange("GET", "/v1/types/zip5")
        #expect(back.status == 200, "\(back.status) \(back.text)")
        #expect(try HTTPConnection(port: server.port).exchange("POST", "/v1/check", body: check).status == 200)
        #expect(server.stop() == 0)
    }

    @Test func theServerStoppingMidImportLeavesNoPartOfIt() throws {
        let cluster = try OwnCluster()
        let sandbox = try sandbox(on: cluster, entries: 300_000)
        try sandbox.write("first.csv", "name,email,age\nBea,bea@example.com,40\n")
        try sandbox.mustRun("import", "--form", "signup", "first.csv")
        let head = try sandbox.mustRun("audit", "head").stdout

        let importing = Background(sandbox, ["import", "--form", "signup", "big.csv"])
        // The import's write transaction holds the writers' advisory lock from its start.
        try wait(for: "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()",
                 on: cluster.url) { $0 > 0 }
        try cluster.halt()
        let result = try importing.result()
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("the connection to the PostgreSQL server at 127.0.0.1:"), "\(result)")
        #expect(result.stderr.contains("was lost during the command") && result.stderr.contains("nothing was written"),
                "\(result)")

        try cluster.resume()
        #expect(try sandbox.mustRun("audit", "head").stdout == head, "the log gained nothing")
        let entries = try sandbox.mustRun("--format", "json", "entries", "list", "--limit", "0").stdout
        #expect(entries.components(separatedBy: "\"id\":").count - 1 == 1, "only the first import's entry: \(entries.prefix(300))")
        let connection = try PostgresConnection(url: cluster.url)
        #expect(try connection.scalarInt64("SELECT count(*) FROM imports") == 1)
        #expect(try connection.scalarInt64("SELECT count(*) FROM entries") == 1)
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
        // The same import goes through once the server is back.
        let again = try sandbox.run("import", "--form", "signup", "big.csv")
        #expect(again.status == 0 && again.stdout.contains("300,000 added"), "\(again)")
    }

    @Test func theServerStoppingMidValidationLeavesAnIncompleteRunAndTheNextOneCompletes() throws {
        let cluster = try OwnCluster()
        let sandbox = try sandbox(on: cluster, entries: 120_000)
        try sandbox.mustRun("import", "--form", "signup", "big.csv")

        // Six chunks, each held a moment before it is judged: the run cannot end between the
        // first chunk's commit and the halt (without the pause a fast run could, and did).
        sandbox.environment["FORMULARY_CHUNK_SIZE"] = "20000"
        sandbox.environment["FORMULARY_TEST_CHUNK_PAUSE"] = "0.5"
        let validating = Background(sandbox, ["validate"])
        sandbox.environment["FORMULARY_TEST_CHUNK_PAUSE"] = nil
        // Some chunks of the run judged and committed, others not yet: under way, not finished.
        try wait(for: """
            SELECT (count(*) FILTER (WHERE state = 'done') > 0 AND count(*) FILTER (WHERE state <> 'done') > 0)::int
            FROM run_chunks
            """, on: cluster.url) { $0 > 0 }
        try cluster.halt()
        let result = try validating.result()
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("the connection to the PostgreSQL server at 127.0.0.1:"), "\(result)")
        #expect(result.stderr.contains("an interrupted run is marked incomplete"), "\(result)")

        try cluster.resume()
        let runs = try sandbox.mustRun("--format", "json", "runs", "list").stdout
        #expect(runs.contains("\"status\":\"incomplete\"") && !runs.contains("\"status\":\"complete\""), "\(runs)")
        let connection = try PostgresConnection(url: cluster.url)
        let done = try connection.scalarInt64("SELECT count(*) FROM run_chunks WHERE run_id = 1 AND state = 'done'") ?? 0
        let open = try connection.scalarInt64("SELECT count(*) FROM run_chunks WHERE run_id = 1 AND state <> 'done'") ?? 0
        #expect(done > 0 && open > 0, "the first run stopped part way: \(done) chunks done, \(open) not")

        let next = try sandbox.run("validate")
        #expect(next.status == 1, "the sample has under-age entries: \(next)")
        #expect(next.stdout.contains("Run 2 complete: 120,000 entries"), "\(next)")
        let after = try sandbox.mustRun("runs", "list").stdout
        #expect(after.contains("incomplete") && after.contains("complete"), "\(after)")
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
    }
}
