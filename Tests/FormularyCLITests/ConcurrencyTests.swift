import Foundation
import Synchronization
import Testing

/// Several `formulary` processes on one database at the same time: they wait for each other's
/// locks (no `database is locked` reaches the user), all finish, apply each migration once,
/// and leave a valid audit chain.
@Suite struct ConcurrencyTests {
    /// Sign-up records as CSV with distinct emails starting after `start`.
    static func signups(_ count: Int, from start: Int = 0) -> String {
        var csv = "name,email,age,card,cvv\n"
        for n in (start + 1)...(start + count) {
            // Every seventh one is under age, so that validation has failures to write.
            csv += "Person \(n),p\(n)@example.com,\(n % 7 == 0 ? 16 : 20 + n % 60),4111111111111111,\(100 + n % 900)\n"
        }
        return csv
    }

    /// What no command may print when another process merely holds the database.
    static func lockErrors(in result: ProcessResult) -> Bool {
        let text = (result.stdout + result.stderr).lowercased()
        return text.contains("locked") || text.contains("busy")
    }

    @Test func importAndValidateAtTheSameTimeBothFinish() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("base.csv", Self.signups(2_000))
        try sandbox.mustRun("import", "--form", "signup", "base.csv")
        let rounds = 4, batch = 1_000
        for round in 0..<rounds {
            try sandbox.write("more-\(round).csv", Self.signups(batch, from: 2_000 + round * batch))
        }

        // One process imports file after file while another validates run after run.
        let importer = (0..<rounds).map { ["import", "--form", "signup", "more-\($0).csv"] }
        let validator = (0..<rounds).map { _ in ["validate"] }
        let results = try ConcurrentRuns.run([importer, validator], in: sandbox)

        for result in results[0] {
            #expect(result.status == 0, "\(result)")
            #expect(!Self.lockErrors(in: result), "\(result)")
        }
        for result in results[1] {
            #expect(result.status == 0 || result.status == 1, "\(result)")
            #expect(!Self.lockErrors(in: result), "\(result)")
            #expect(result.stdout.hasPrefix("Run ") && result.stdout.contains(" complete: "), "\(result)")
        }

        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
        let sql = try SQLiteShell(path: sandbox.databasePath)
        #expect(try sql.scalar("PRAGMA integrity_check") == "ok")
        #expect(try sql.scalar("SELECT count(*) FROM entries") == String(2_000 + rounds * batch))
        #expect(try sql.scalar("SELECT count(*) FROM runs WHERE status = 'complete'") == String(rounds))
        // Each run judged exactly the entries that existed when it started: a whole number of
        // imports, never part of one.
        let judged = try sql.query("SELECT entries_checked FROM runs ORDER BY id").compactMap { $0.first ?? nil }
        let possible = Set((0...rounds).map { String(2_000 + $0 * batch) })
        #expect(judged.allSatisfy(possible.contains), "\(judged)")
        #expect(try sql.scalar("SELECT count(*) FROM audit_log WHERE action = 'validate'") == String(rounds))
        #expect(try sql.scalar("SELECT count(*) FROM audit_log WHERE action = 'import'") == String(rounds + 1))
    }

    /// An import holds the write lock for its whole transaction, which for a big file takes
    /// seconds on a busy machine; a command that needs the lock meanwhile must wait it out
    /// rather than fail with "database is locked" (it did after 5 s).
    ///
    /// Nothing here is inferred from a sleep: each command records (through the test hook
    /// `FORMULARY_TEST_WAIT_LOG`) that it has started waiting for the lock; once both have,
    /// neither may have finished or written anything, and after the lock is released both
    /// must finish and succeed.
    @Test func aCommandWaitsOutAnotherProcesssLongTransaction() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("first.csv", Self.signups(10))
        try sandbox.mustRun("import", "--form", "signup", "first.csv")
        try sandbox.write("some.csv", Self.signups(10, from: 10))
        let waitLog = sandbox.path("waits.log")
        sandbox.environment["FORMULARY_TEST_WAIT_LOG"] = waitLog
        let holder = try SQLiteShell(path: sandbox.databasePath)
        try holder.execute("BEGIN IMMEDIATE")
        let runsBefore = try holder.scalar("SELECT count(*) FROM runs")
        let waiting = ConcurrentRuns([[["import", "--form", "signup", "some.csv"]], [["validate"]]], in: sandbox)
        // Until both processes say they are waiting, or one ends without having done so
        // (gave up, failed, or never needed the lock): either way the loop ends.
        var waiters = Set<String>()
        while waiters.count < 2 && !waiting.isFinished {
            usleep(5_000)
            waiters = Self.waitingProcesses(in: waitLog)
        }
        #expect(waiters.count == 2, "the commands that logged a wait: \(waiters)")
        #expect(!waiting.isFinished, "a command gave up (or did not wait) while the lock was held")
        // While waiting they have written nothing.
        #expect(try holder.scalar("SELECT count(*) FROM entries") == "10")
        #expect(try holder.scalar("SELECT count(*) FROM runs") == runsBefore)
        try holder.execute("COMMIT")
        let results = try waiting.wait()
        // The hook was for the two processes; what follows runs in this one.
        sandbox.environment["FORMULARY_TEST_WAIT_LOG"] = nil

        let imported = results[0][0], validated = results[1][0]
        #expect(imported.status == 0 && !Self.lockErrors(in: imported), "\(imported)")
        #expect((validated.status == 0 || validated.status == 1) && !Self.lockErrors(in: validated), "\(validated)")
        #expect(validated.stdout.hasPrefix("Run ") && validated.stdout.contains(" complete: "), "\(validated)")
        #expect(try sandbox.entries().count == 20)
        #expect(try sandbox.run("audit", "verify").status == 0)
    }

    /// The process ids in a `FORMULARY_TEST_WAIT_LOG` file (`waiting PID` lines).
    static func waitingProcesses(in path: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        // The last piece is empty, or a line still being written: only whole lines count.
        return Set(text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            line.hasPrefix("waiting ") ? String(line.dropFirst("waiting ".count)) : nil
        })
    }

    @Test func eightProcessesRacingInitApplyEachMigrationOnce() throws {
        for round in 0..<3 {
            let sandbox = try Sandbox()
            let racers = Array(repeating: [["--format", "json", "init"]], count: 8)
            let results = try ConcurrentRuns.run(racers, in: sandbox).flatMap { $0 }

            var appliedBy: [String: Int] = [:]
            var created = 0
            for result in results {
                #expect(result.status == 0, "round \(round): \(result)")
                #expect(!Self.lockErrors(in: result), "round \(round): \(result)")
                guard result.status == 0,
                      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                else { continue }
                for name in object["applied"] as? [String] ?? [] { appliedBy[name, default: 0] += 1 }
                if object["created"] as? Bool == true { created += 1 }
            }
            #expect(created >= 1, "round \(round): some process found no file")

            let status = try sandbox.run("--format", "json", "migrate", "--status")
            #expect(status.status == 0, "\(status)")
            let known = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]],
                                     "\(status)")
            let names = known.compactMap { $0["name"] as? String }
            #expect(!names.isEmpty && known.allSatisfy { $0["status"] as? String == "applied" }, "\(status)")
            // Each migration was applied by exactly one of the eight…
            #expect(appliedBy == Dictionary(uniqueKeysWithValues: names.map { ($0, 1) }), "round \(round): \(appliedBy)")
            // …and recorded once.
            let sql = try SQLiteShell(path: sandbox.databasePath)
            #expect(try sql.scalar("SELECT count(*) FROM schema_migrations") == String(names.count))
            #expect(try sql.scalar("SELECT count(DISTINCT name) FROM schema_migrations") == String(names.count))
            #expect(try sql.scalar("PRAGMA integrity_check") == "ok")
            #expect(try sandbox.run("audit", "verify").status == 0)
        }
    }
}

/// Runs sequences of commands in parallel: each sequence on its own thread, its commands one
/// after the other, every sequence started at the same moment.
final class ConcurrentRuns: Sendable {
    private let group = DispatchGroup()
    private let results = Mutex<[Int: Result<[ProcessResult], any Error>]>([:])
    private let count: Int

    /// Starts the sequences and returns at once; ``wait()`` collects their results.
    init(_ sequences: [[[String]]], in sandbox: Sandbox) {
        let environment = sandbox.environment
        let directory = sandbox.root
        count = sequences.count
        // Threads (not the cooperative pool, which has as few threads as cores) so that all
        // sequences really run at once; a barrier lines up their first commands.
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        for (index, commands) in sequences.enumerated() {
            self.group.enter()
            let thread = Thread {
                ready.signal()
                go.wait()
                let outcome = Result { () throws -> [ProcessResult] in
                    try commands.map {
                        try FormularyProcess.run($0, environment: environment, directory: directory)
                    }
                }
                self.results.withLock { $0[index] = outcome }
                self.group.leave()
            }
            thread.start()
        }
        for _ in sequences { ready.wait() }
        for _ in sequences { go.signal() }
    }

    /// Waits for every sequence; their results in the order they were given.
    func wait() throws -> [[ProcessResult]] {
        group.wait()
        return try results.withLock { all in try (0..<count).map { try all[$0]!.get() } }
    }

    /// True once every sequence has ended.
    var isFinished: Bool { group.wait(timeout: .now()) == .success }

    /// Runs the sequences and waits for them.
    static func run(_ sequences: [[[String]]], in sandbox: Sandbox) throws -> [[ProcessResult]] {
        try ConcurrentRuns(sequences, in: sandbox).wait()
    }
}
