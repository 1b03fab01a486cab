import Foundation

/// Whole-process figures of the `formulary` release binary on a plugin folder of 5,000
/// types chained by `extends` (t1 extends t0, …, t4999 extends t4998), the shape that once
/// stalled `types list`, crashed `check` and made `types add` cubic in the chain's depth:
/// - `types list` with the folder on `--plugins`;
/// - `check t4999 abc` (the deepest type) and `check email …` (a type the chain does not
///   touch) with the folder on `--plugins`;
/// - `types add` of the 5,000 files, into a fresh database.
/// Target: each under 2 s, ending with exit 2 (the chain is too deep below t64; `check
/// email` exits 0). Each command runs five times; the median and the best are printed.
func runResolveBench(count: Int = 5_000) {
    let binary = (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    let formulary = ((binary as NSString).deletingLastPathComponent as NSString).appendingPathComponent("formulary")
    guard FileManager.default.isExecutableFile(atPath: formulary) else {
        print("resolve: no formulary binary next to the benchmark (\(formulary)); run `swift build -c release` first")
        return
    }
    let root = NSTemporaryDirectory() + "formulary-resolve-bench-\(getpid())"
    let folder = root + "/d"
    guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else {
        print("resolve: cannot create \(folder)")
        return
    }
    defer { try? FileManager.default.removeItem(atPath: root) }
    var files: [String] = []
    for index in 0..<count {
        let header = index == 0 ? "field t0" : "field t\(index) extends t\(index - 1)"
        let path = folder + "/t\(index).field"
        guard let file = fopen(path, "w") else { print("resolve: cannot write \(path)"); return }
        fputs(header + "\nlength 1...10\n", file)
        fclose(file)
        files.append(path)
    }
    let db = root + "/r.db"
    let environment = ["FORMULARY_TODAY=2026-11-29", "NO_COLOR=1", "USER=bench", "FORMULARY_PATH=",
                       "FORMULARY_DB=\(db)", "PATH=/usr/bin:/bin"]
    guard spawn(formulary, ["init"], environment)?.status == 0 else { print("resolve: init failed"); return }

    let commands: [(name: String, arguments: [String], expected: Int32)] = [
        ("types list", ["--plugins", folder, "types", "list"], 2),
        ("check t4999", ["--plugins", folder, "check", "t\(count - 1)", "abc"], 2),
        ("check email", ["--plugins", folder, "check", "email", "ada@example.com"], 0),
        ("types add (\(count) files)", ["types", "add"] + files, 2),
    ]
    for command in commands {
        var times: [Double] = []
        var statuses = Set<Int32>()
        for _ in 0..<5 {
            guard let run = spawn(formulary, command.arguments, environment) else { return }
            times.append(run.seconds)
            statuses.insert(run.status)
        }
        times.sort()
        let exit = statuses.sorted().map(String.init).joined(separator: ",")
        let verdict = statuses == [command.expected] && times[2] < 2 ? "ok" : "MISSED"
        let median = String(format: "%.3f", times[2]), best = String(format: "%.3f", times[0])
        print("resolve \(command.name) on a \(count)-type chain: median \(median) s, best \(best) s, exit \(exit) "
              + "(target < 2 s, exit \(command.expected)): \(verdict)")
    }
}
