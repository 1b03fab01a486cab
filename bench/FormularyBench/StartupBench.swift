import Foundation

/// Start-up of the `formulary` release binary as a user meets it: whole processes, each
/// command run `rounds` times in turn with the others (so that a neighbour's load falls on
/// all of them alike), medians of wall and CPU time. The three commands split the time of a
/// one-value `check credit-card`:
/// - `--version`: loading and relocating the binary and its shared libraries, the Swift
///   runtime, reading the arguments (the floor every command pays);
/// - `check age 42`: plus the registry, one small built-in type parsed and compiled, one
///   value judged and printed;
/// - `check credit-card "4111 1111 1111 1111"`: plus credit-card's 14 KB file and its 43
///   masks' `when` automata (target: at most the time of a build of commit 7f10fdc).
///
/// `FormularyBench startup OTHER_FORMULARY` runs each command with both binaries, in turn,
/// and prints the ratio of this build's time to the other's, pair by pair (the median).
func runStartupBench(baseline: String? = nil, rounds: Int = 41) {
    let binary = (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    let formulary = ((binary as NSString).deletingLastPathComponent as NSString).appendingPathComponent("formulary")
    guard FileManager.default.isExecutableFile(atPath: formulary) else {
        print("startup: no formulary binary next to the benchmark (\(formulary)); run `swift build -c release` first")
        return
    }
    if let baseline, !FileManager.default.isExecutableFile(atPath: baseline) {
        print("startup: \(baseline) is not an executable")
        return
    }
    // No database and no plugin folder: the built-in types only, as on a first run.
    let folder = NSTemporaryDirectory() + "formulary-startup-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let environment = ["FORMULARY_TODAY=2026-11-29", "NO_COLOR=1", "USER=bench", "FORMULARY_PATH=",
                       "FORMULARY_DB=\(folder)/none.db", "PATH=/usr/bin:/bin"]
    let commands: [(label: String, arguments: [String])] = [
        ("--version", ["--version"]),
        ("check age 42", ["check", "age", "42"]),
        ("check credit-card \"4111 1111 1111 1111\"", ["check", "credit-card", "4111 1111 1111 1111"]),
    ]
    print("startup: shared libraries loaded: \(sharedLibraries(formulary).map(String.init) ?? "?")"
          + (baseline.map { ", \($0): \(sharedLibraries($0).map(String.init) ?? "?")" } ?? ""))
    var wall = [[Double]](repeating: [], count: commands.count), cpu = wall
    var baseWall = wall, baseCPU = wall, wallRatio = wall, cpuRatio = wall
    // One warm-up round (page cache), then the measured ones.
    for round in 0...rounds {
        for (i, command) in commands.enumerated() {
            guard let mine = spawn(formulary, command.arguments, environment), mine.status <= 1 else {
                print("startup: \(command.label) failed"); return
            }
            var theirs: SpawnResult?
            if let baseline {
                guard let r = spawn(baseline, command.arguments, environment), r.status <= 1 else {
                    print("startup: \(command.label) failed with \(baseline)"); return
                }
                theirs = r
            }
            guard round > 0 else { continue }
            wall[i].append(mine.seconds * 1000); cpu[i].append(mine.cpuSeconds * 1000)
            if let theirs {
                baseWall[i].append(theirs.seconds * 1000); baseCPU[i].append(theirs.cpuSeconds * 1000)
                wallRatio[i].append(mine.seconds / theirs.seconds)
                cpuRatio[i].append(mine.cpuSeconds / max(theirs.cpuSeconds, 1e-6))
            }
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    for (i, command) in commands.enumerated() {
        var line = String(format: "startup %@: median %.1f ms wall, %.1f ms CPU (%d runs)",
                          command.label, median(wall[i]), median(cpu[i]), wall[i].count)
        if baseline != nil {
            line += String(format: "; other binary %.1f ms wall, %.1f ms CPU; ratio (pair by pair) wall %.2f×, CPU %.2f×",
                           median(baseWall[i]), median(baseCPU[i]), median(wallRatio[i]), median(cpuRatio[i]))
        }
        print(line)
    }
}

/// How many shared libraries the dynamic loader maps for `binary` (`ldd`'s lines), or nil.
private func sharedLibraries(_ binary: String) -> Int? {
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    ldd.arguments = ["ldd", binary]
    let output = Pipe()
    ldd.standardOutput = output
    ldd.standardError = FileHandle.nullDevice
    guard (try? ldd.run()) != nil else { return nil }
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    ldd.waitUntilExit()
    guard ldd.terminationStatus == 0 else { return nil }
    return text.split(separator: "\n").filter { $0.contains("=>") || $0.contains("ld-linux") || $0.contains("vdso") }.count
}
