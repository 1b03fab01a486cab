import Foundation
import FormularyStore
import FormularyPostgres

/// Whole `formulary` commands on PostgreSQL and on SQLite, on the same sign-up CSV, one
/// after the other on the same machine: `import` (target ≥ 200,000 entries/s on a server) and
/// `validate` (target ≥ 500,000 entries/s at 1M), then `copy --to` between the two kinds. The
/// server is the one `FORMULARY_TEST_POSTGRES_URL` names (`make bench` starts a throw-away
/// cluster on this machine, fsync off); each size gets a new database on it.
///
/// The release `formulary` binary is looked up next to this benchmark's executable.
func runPostgresCommandBench(sizes: [Int] = [200_000, 1_000_000]) {
    guard let base = ProcessInfo.processInfo.environment["FORMULARY_TEST_POSTGRES_URL"], !base.isEmpty else {
        print("command-postgres: skipped (FORMULARY_TEST_POSTGRES_URL is not set; `make bench` sets it)")
        return
    }
    let binary = (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    let formulary = ((binary as NSString).deletingLastPathComponent as NSString).appendingPathComponent("formulary")
    guard FileManager.default.isExecutableFile(atPath: formulary) else {
        print("command-postgres: no formulary binary next to the benchmark (\(formulary)); run `swift build -c release` first")
        return
    }
    let folder = NSTemporaryDirectory() + "formulary-pg-command-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let benchFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    let environment = ["FORMULARY_TODAY=2026-11-29", "NO_COLOR=1", "USER=bench", "FORMULARY_PATH=", "PATH=/usr/bin:/bin"]
    print("Whole commands, PostgreSQL (server on this machine) beside SQLite, same CSV:")

    for size in sizes {
        let csv = folder + "/signup-\(size).csv"
        guard SignupData.writeCSV(count: size, to: csv) else { print("command-postgres: cannot write \(csv)"); return }
        defer { unlink(csv) }
        let sqlite = folder + "/signup-\(size).db"
        let server = "formulary_bench_cmd_\(getpid())_\(size)"
        let copyServer = server + "_copy"
        guard let url = commandBenchURL(base, server), let copyURL = commandBenchURL(base, copyServer) else {
            print("command-postgres: cannot read \(base)")
            return
        }
        let admin: Store
        do {
            admin = try Store.postgres(url: base)
            try admin.executeAdministrative("CREATE DATABASE \(server)")
            try admin.executeAdministrative("CREATE DATABASE \(copyServer)")
        } catch {
            print("command-postgres: \(error)")
            return
        }
        defer {
            try? admin.executeAdministrative("DROP DATABASE IF EXISTS \(server) WITH (FORCE)")
            try? admin.executeAdministrative("DROP DATABASE IF EXISTS \(copyServer) WITH (FORCE)")
            for suffix in ["", "-wal", "-shm"] { unlink(sqlite + suffix) }
        }
        for (label, db) in [("SQLite    ", sqlite), ("PostgreSQL", url)] {
            let env = environment + ["FORMULARY_DB=\(db)"]
            guard let initialised = spawn(formulary, ["init"], env), initialised.status == 0 else {
                print("command-postgres \(label) init: failed"); return
            }
            guard let imported = spawn(formulary, ["--plugins", benchFolder, "import", "--form", "signup", csv], env,
                                       samplePeak: true), imported.status == 0 else {
                print("command-postgres \(label) import \(size): failed"); return
            }
            guard let validated = spawn(formulary, ["--plugins", benchFolder, "validate"], env, samplePeak: true),
                  validated.status <= 1 else { print("command-postgres \(label) validate \(size): failed"); return }
            print(String(format: "  %@ %7d: import %.2f s = %7.0f entries/s (peak %.0f MiB); validate %.2f s = %7.0f entries/s (peak %.0f MiB)",
                         label, size, imported.seconds, Double(size) / imported.seconds, imported.peakMiB,
                         validated.seconds, Double(size) / validated.seconds, validated.peakMiB))
        }
        // A full run again (runs 2 and 3): by one process, then by a starter and one
        // `validate --join` process beside it.
        let serverEnv = environment + ["FORMULARY_DB=\(url)"]
        if let alone = spawn(formulary, ["--plugins", benchFolder, "validate", "--all"], serverEnv), alone.status <= 1,
           let joined = joinedValidate(formulary, ["--plugins", benchFolder], serverEnv, runID: 3) {
            print(String(format: "  validate --all %7d on PostgreSQL: one process %.2f s = %7.0f entries/s; with one --join worker %.2f s = %7.0f entries/s (the --join process said: %@)",
                         size, alone.seconds, Double(size) / alone.seconds, joined.seconds, Double(size) / joined.seconds,
                         joined.joinerSaid))
        } else { print("command-postgres validate --join \(size): failed") }
        // The registry (entries, one run's results, the log) moved both ways.
        let env = environment + ["FORMULARY_DB=\(sqlite)"]
        if let there = spawn(formulary, ["copy", "--to", copyURL], env, samplePeak: true), there.status == 0 {
            print(String(format: "  copy --to  %7d: SQLite → PostgreSQL %.2f s = %7.0f entries/s (peak %.0f MiB)",
                         size, there.seconds, Double(size) / there.seconds, there.peakMiB))
        } else { print("command-postgres copy to PostgreSQL \(size): failed") }
        let back = folder + "/back-\(size).db"
        defer { for suffix in ["", "-wal", "-shm"] { unlink(back + suffix) } }
        if let home = spawn(formulary, ["copy", "--to", back], environment + ["FORMULARY_DB=\(url)"], samplePeak: true),
           home.status == 0 {
            print(String(format: "  copy --to  %7d: PostgreSQL → SQLite %.2f s = %7.0f entries/s (peak %.0f MiB)",
                         size, home.seconds, Double(size) / home.seconds, home.peakMiB))
        } else { print("command-postgres copy to SQLite \(size): failed") }
    }
}

/// `base` with its database name replaced.
private func commandBenchURL(_ base: String, _ database: String) -> String? {
    guard let scheme = base.range(of: "://") else { return nil }
    let rest = base[scheme.upperBound...]
    let pathStart = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
    let queryStart = rest[pathStart...].firstIndex(of: "?") ?? rest.endIndex
    return String(base[..<scheme.upperBound]) + rest[..<pathStart] + "/" + database + rest[queryStart...]
}

/// `validate --all` started in the background, with `validate --join RUN` started beside it
/// (tried again until the starter has shared the run): the starter's wall time, and the
/// joiner's own summary line.
private func joinedValidate(_ formulary: String, _ options: [String], _ environment: [String],
                            runID: Int) -> (seconds: Double, joinerSaid: String)? {
    let variables = Dictionary(environment.map { entry -> (String, String) in
        let parts = entry.split(separator: "=", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
    }, uniquingKeysWith: { _, last in last })
    func process(_ arguments: [String], output: Pipe?) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: formulary)
        process.arguments = options + arguments
        process.environment = variables
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        return process
    }
    let starter = process(["validate", "--all"], output: nil)
    let start = DispatchTime.now().uptimeNanoseconds
    guard (try? starter.run()) != nil else { return nil }
    var said = "nothing"
    while starter.isRunning {
        let pipe = Pipe()
        let joiner = process(["validate", "--join", String(runID)], output: pipe)
        guard (try? joiner.run()) != nil else { break }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        joiner.waitUntilExit()
        if joiner.terminationStatus == 0 {
            said = output.split(separator: "\n").first.map(String.init) ?? "?"
            break
        }
        usleep(20_000)
    }
    starter.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return starter.terminationReason == .exit && starter.terminationStatus <= 1 ? (seconds, said) : nil
}
