import Foundation

/// A throw-away working folder for one test: files written into it, a database (a file in
/// it, or with ``TestBackend/postgres`` a new database on the test server), and the
/// controlled environment every run gets.
///
/// Runs use the folder as their current directory, so diagnostics name files by the
/// short relative paths the test wrote (`p/age.field:3:1`).
final class Sandbox {
    let root: URL
    /// The environment of every run unless a test overrides a variable: nothing from the
    /// developer's shell leaks in (no FORMULARY_PATH, no colour, a fixed "today").
    var environment: [String: String]
    /// The kind of database `FORMULARY_DB` names.
    let backend: TestBackend
    /// The server database of a PostgreSQL sandbox, dropped with the sandbox.
    let server: ScratchServerDatabase?

    /// A sandbox whose `FORMULARY_DB` is `formulary.db` in its folder or, for `.postgres`, the
    /// URL of a new, empty database on the test server (what `createdb` makes).
    init(backend: TestBackend = .sqlite) throws {
        self.backend = backend
        server = backend == .postgres ? try ScratchServerDatabase() : nil
        let fm = FileManager.default
        root = fm.temporaryDirectory.appendingPathComponent("formulary-cli-\(UUID().uuidString)")
            .resolvingSymlinksInPath()
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        environment = [
            "FORMULARY_TODAY": "2026-11-29",
            "NO_COLOR": "1",
            "FORMULARY_PATH": "",
            "FORMULARY_DB": server?.url ?? root.appendingPathComponent("formulary.db").path,
            "USER": "tester",
            "HOME": root.path,
            "LANG": "C.UTF-8",
        ]
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The database the environment points at (a path, or a URL on PostgreSQL).
    var databasePath: String { environment["FORMULARY_DB"]! }

    /// Runs `sql` on the sandbox's database from outside Formulary (SQLite's or the server's
    /// dialect, as ``backend`` says) and returns the rows as text, nil for NULL.
    func query(_ sql: String) throws -> [[String?]] {
        if let server { return try server.query(sql) }
        return try SQLiteShell(path: databasePath).query(sql)
    }

    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Writes `text` to `relative` (creating folders) and returns the relative path.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, bytes: Array(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        return relative
    }

    func mkdir(_ relative: String) throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent(relative), withIntermediateDirectories: true)
    }

    /// Runs `formulary ARGUMENTS…` in the sandbox, in this process (``InProcess``);
    /// `environment` entries replace (or, with nil, remove) the sandbox's.
    @discardableResult
    func run(_ arguments: String..., environment overrides: [String: String?] = [:],
             stdin: String? = nil) throws -> ProcessResult {
        try run(arguments, environment: overrides, stdin: stdin)
    }

    @discardableResult
    func run(_ arguments: [String], environment overrides: [String: String?] = [:],
             stdin: String? = nil) throws -> ProcessResult {
        try InProcess.run(arguments, environment: environment(overrides), directory: root, stdin: stdin.map { Data($0.utf8) })
    }

    /// Runs `formulary ARGUMENTS…` in the sandbox as the executable, in a process of its own:
    /// for what needs one (the exit status end to end, signals, several processes, file
    /// permissions through `launcher`, standard output to `stdoutPath`, the test hooks).
    @discardableResult
    func spawn(_ arguments: String..., environment overrides: [String: String?] = [:],
               stdin: String? = nil) throws -> ProcessResult {
        try spawn(arguments, environment: overrides, stdin: stdin)
    }

    @discardableResult
    func spawn(_ arguments: [String], environment overrides: [String: String?] = [:],
               stdin: String? = nil, launcher: [String] = [], stdoutPath: String? = nil) throws -> ProcessResult {
        try FormularyProcess.run(arguments, environment: environment(overrides), directory: root,
                                 stdin: stdin.map { Data($0.utf8) }, launcher: launcher, stdoutPath: stdoutPath)
    }

    private func environment(_ overrides: [String: String?]) -> [String: String] {
        var env = environment
        for (name, value) in overrides { env[name] = value }
        return env
    }

    /// Runs `init` and fails loudly if it does not work: most database tests start here.
    func initDatabase() throws {
        let result = try run("init")
        guard result.status == 0 else { throw SetupFailure(result: result) }
    }

    /// Runs a command that a test needs to succeed before it can check what it is about.
    @discardableResult
    func mustRun(_ arguments: String..., stdin: String? = nil) throws -> ProcessResult {
        let result = try run(arguments, stdin: stdin)
        guard result.status == 0 else { throw SetupFailure(result: result) }
        return result
    }

    struct SetupFailure: Error, CustomStringConvertible {
        var result: ProcessResult
        var description: String { "a setup step failed: \(result)" }
    }
}
