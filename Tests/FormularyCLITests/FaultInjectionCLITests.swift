import Foundation
import Testing

/// What a user sees when SQLite fails under a command: exit status 3, a message saying what
/// happened, that nothing was written and what to do, and a database equal to the one before.
///
/// The faults come from the binary's test hook `FORMULARY_TEST_FAULT=step:K:CODE` (the K-th
/// SQLite step of the process fails with CODE). FormularyKitTests' FaultInjectionTests
/// inject at every step in process; these runs prove the process-level behaviour at sampled
/// steps, the first and the `COMMIT` included.
@Suite struct FaultInjectionCLITests {
    /// What each fault's message must say.
    static let faults: [(name: String, says: String)] = [
        ("full", "is full"),
        ("ioerr", "an I/O error occurred"),
        ("busy", "is locked by another process"),
    ]

    @Test func importFailsWithStatus3AndWritesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("records.csv", "name,email,age\nAnn,ann@example.com,30\nBob,bob@example.com,41\nCy,cy@example.com,17\n")
        let figures = try FaultRun(sandbox: sandbox, arguments: ["import", "--form", "signup", "records.csv"]).check()
        #expect(figures.steps > 10)
    }

    @Test func typesAddFailsWithStatus3AndWritesNothing() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try FaultRun(sandbox: sandbox, arguments: ["types", "add", "visa.field"]).check()
    }

    /// The numbered files of migrations/: every one is applied by a completed `init`.
    static let migrationFiles = ((try? FileManager.default.contentsOfDirectory(
        atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations").path)) ?? [])
        .filter { $0.hasSuffix(".sql") }.count

    @Test func initOfANewFileFailsWithStatus3AndLeavesNoTables() throws {
        let sandbox = try Sandbox()
        try FaultRun(sandbox: sandbox, arguments: ["init"]).check()
        // The failed runs left an empty file at most; init then completes it.
        try sandbox.mustRun("init")
        #expect(try SQLiteShell(path: sandbox.databasePath).scalar("SELECT count(*) FROM schema_migrations") == String(Self.migrationFiles))
    }

    /// A value that is not exactly `step:K:CODE` installs nothing: the command just works.
    @Test func malformedFaultValuesAreIgnored() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        for value in ["", "step:0:full", "step:1:disk", "step:1", "step:-1:full", "step:1:full:x", "step: 1:full",
                      "step:1:FULL", "step:1234567890:full", "step:١:full", "STEP:1:full", "step:1:full ",
                      "write:1:busy", "write:0:full", "write:1", "writes:1:full"] {
            let result = try sandbox.spawn(["entries", "list"], environment: ["FORMULARY_TEST_FAULT": value])
            #expect(result.status == 0, "FORMULARY_TEST_FAULT=\(value): \(result)")
        }
        let result = try sandbox.spawn(["entries", "list"], environment: ["FORMULARY_TEST_FAULT": "step:1:full"])
        #expect(result.status == 3, "the well-formed value does fail: \(result)")
    }
}

/// One command run again and again with a fault at chosen steps, the database restored in
/// between.
struct FaultRun {
    let sandbox: Sandbox
    let arguments: [String]

    struct Figures {
        var steps: Int
        var injections: Int
    }

    private var files: [String] { ["", "-wal", "-shm"].map { sandbox.databasePath + $0 } }
    private var saved: String { sandbox.path("saved.db") }

    private func save() throws {
        let fm = FileManager.default
        for (file, suffix) in zip(files, ["", "-wal", "-shm"]) {
            try? fm.removeItem(atPath: saved + suffix)
            if fm.fileExists(atPath: file) { try fm.copyItem(atPath: file, toPath: saved + suffix) }
        }
    }

    private func restore() throws {
        let fm = FileManager.default
        for (file, suffix) in zip(files, ["", "-wal", "-shm"]) {
            try? fm.removeItem(atPath: file)
            if fm.fileExists(atPath: saved + suffix) { try fm.copyItem(atPath: saved + suffix, toPath: file) }
        }
    }

    private func run(failingAt step: Int, _ code: String) throws -> ProcessResult {
        try sandbox.spawn(arguments, environment: ["FORMULARY_TEST_FAULT": "step:\(step):\(code)"])
    }

    /// The number of steps of an uninterrupted run: the largest K whose fault still stops the
    /// command (a fault past the last step never fires), found by bisection.
    private func countSteps() throws -> Int {
        var failing = 0, succeeding = 1
        while true {
            try restore()
            let result = try run(failingAt: succeeding, "full")
            if result.status == 0 { break }
            #expect(result.status == 3, "\(result)")
            failing = succeeding
            succeeding *= 2
            guard succeeding < 1 << 16 else { throw FaultRunError(message: "\(arguments) never succeeds") }
        }
        while succeeding - failing > 1 {
            let middle = (failing + succeeding) / 2
            try restore()
            if try run(failingAt: middle, "full").status == 0 { succeeding = middle } else { failing = middle }
        }
        return failing
    }

    /// Fails the run at the first steps, spread steps and the last (`COMMIT`) with every fault;
    /// each must exit 3 with the fault's message and leave the database as it was.
    @discardableResult
    func check(sourceLocation: SourceLocation = #_sourceLocation) throws -> Figures {
        try save()
        let before = try DatabaseText.dump(sandbox.databasePath)
        let steps = try countSteps()
        let samples = Set([1, 2, 3, steps / 4, steps / 2, 3 * steps / 4, steps - 1, steps].filter { $0 >= 1 }).sorted()
        var injections = 0
        for step in samples {
            for fault in FaultInjectionCLITests.faults {
                try restore()
                let result = try run(failingAt: step, fault.name)
                injections += 1
                let place = "step:\(step):\(fault.name) of \(steps)"
                #expect(result.status == 3, "\(place): \(result)", sourceLocation: sourceLocation)
                #expect(result.stdout.isEmpty, "\(place): \(result)", sourceLocation: sourceLocation)
                let lines = result.errorLines
                #expect(lines.count == 2, "\(place): \(result)", sourceLocation: sourceLocation)
                let message = lines.first ?? ""
                #expect(message.hasPrefix("formulary: error: ") && message.contains(fault.says)
                        && message.contains("; nothing was written.") && message.lowercased().contains("run the command again"),
                        "\(place): \(result)", sourceLocation: sourceLocation)
                #expect(lines.last?.hasPrefix("(SQLite error ") == true, "\(place): \(result)", sourceLocation: sourceLocation)
                if step == steps {
                    #expect(result.stderr.contains("while executing `COMMIT`"), "\(place): \(result)", sourceLocation: sourceLocation)
                }
                let after = try DatabaseText.dump(sandbox.databasePath)
                #expect(after == before, "\(place): the database changed", sourceLocation: sourceLocation)
            }
        }
        // After all that, the command still works and the audit chain holds.
        try restore()
        let clean = try sandbox.run(arguments)
        #expect(clean.status == 0, "\(clean)", sourceLocation: sourceLocation)
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)", sourceLocation: sourceLocation)
        print("fault injection (process): formulary \(arguments.joined(separator: " ")): \(steps) steps, \(injections) injections")
        return Figures(steps: steps, injections: injections)
    }
}

struct FaultRunError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A canonical text dump of a database (none for a missing file): schema, then every table's
/// rows, rowid tables in rowid order, `WITHOUT ROWID` tables sorted.
enum DatabaseText {
    static func dump(_ path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let sql = try SQLiteShell(path: path)
        let schema = try sql.query("SELECT type, name, sql FROM sqlite_schema ORDER BY type, name")
        var lines = schema.map { "schema " + $0.map { $0 ?? "NULL" }.joined(separator: " ") }
        for row in schema where row[0] == "table" {
            guard let name = row[1] else { continue }
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let withoutRowID = try sql.scalar("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = '"
                                              + name.replacingOccurrences(of: "'", with: "''") + "'") == "1"
            var rows = try sql.query(withoutRowID ? "SELECT * FROM \(quoted)" : "SELECT rowid, * FROM \(quoted) ORDER BY rowid")
                .map { "\(name): " + $0.map { $0 ?? "NULL" }.joined(separator: " | ") }
            if withoutRowID { rows.sort() }
            lines += rows
        }
        return lines
    }
}
