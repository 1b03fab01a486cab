import Foundation

/// Whole-process figures of the `formulary` release binary, as a user meets them:
/// - `check`: one value, a whole process each time (target: under 30 ms);
/// - `import`: the 200,000- and 1,000,000-entry sign-up CSVs (target ≥ 300,000 entries/s,
///   peak memory independent of the file's size);
/// - `validate`: the imported entries, end to end (reading, judging, recording).
///
/// The binary is looked up next to this benchmark's executable, so build both in release:
/// `swift build -c release` (or `make bench`).
func runCommandBench(sizes: [Int] = [200_000, 1_000_000]) {
    let binary = (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    let formulary = ((binary as NSString).deletingLastPathComponent as NSString).appendingPathComponent("formulary")
    guard FileManager.default.isExecutableFile(atPath: formulary) else {
        print("command: no formulary binary next to the benchmark (\(formulary)); run `swift build -c release` first")
        return
    }
    let folder = NSTemporaryDirectory() + "formulary-command-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let benchFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    let environment = ["FORMULARY_TODAY=2026-11-29", "NO_COLOR=1", "USER=bench", "FORMULARY_PATH=",
                      "PATH=/usr/bin:/bin"]

    // check: one value per process.
    var times: [Double] = []
    for _ in 0..<40 {
        guard let r = spawn(formulary, ["check", "credit-card", "4111 1111 1111 1111"], environment) else { return }
        times.append(r.seconds * 1000)
    }
    times.sort()
    print(String(format: "command check: one value per process, median %.1f ms, p90 %.1f ms, best %.1f ms (target < 30 ms)",
                 times[times.count / 2], times[times.count * 9 / 10], times[0]))

    for size in sizes {
        let csv = folder + "/signup-\(size).csv"
        let db = folder + "/signup-\(size).db"
        guard SignupData.writeCSV(count: size, to: csv) else { print("command: cannot write \(csv)"); return }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: csv)[.size] as? Int) ?? 0
        let env = environment + ["FORMULARY_DB=\(db)"]
        _ = spawn(formulary, ["init"], env)
        guard let imported = spawn(formulary, ["--plugins", benchFolder, "import", "--form", "signup", csv], env, samplePeak: true),
              imported.status == 0 else { print("command import \(size): failed"); return }
        print(String(format: "command import %d (%.0f MiB CSV): %.2f s, %.0f entries/s, peak RSS %.1f MiB",
                     size, Double(bytes) / 1_048_576, imported.seconds, Double(size) / imported.seconds,
                     imported.peakMiB))
        guard let validated = spawn(formulary, ["--plugins", benchFolder, "validate"], env, samplePeak: true),
              validated.status <= 1 else { print("command validate \(size): failed"); return }
        print(String(format: "command validate %d: %.2f s, %.0f entries/s, peak RSS %.1f MiB (whole process)",
                     size, validated.seconds, Double(size) / validated.seconds, validated.peakMiB))
        for suffix in ["", "-wal", "-shm"] { unlink(db + suffix) }
        unlink(csv)
    }
}

struct SpawnResult {
    var status: Int32
    var seconds: Double
    var peakMiB: Double
    /// User plus system CPU time of the child.
    var cpuSeconds: Double = 0
}

/// Runs a program with its output discarded; wall time and the child's peak RSS (the
/// `command` and `resolve` suites use it).
/// Runs `path` to its end; with `samplePeak`, samples its peak memory while it runs (which
/// delays noticing its end by up to 2 ms: not for the timing of short commands).
func spawn(_ path: String, _ arguments: [String], _ environment: [String],
          samplePeak: Bool = false) -> SpawnResult? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else {
        print("command: cannot start \(path)")
        return nil
    }
    // The child's own peak (see PeakMemory) is sampled every 2 ms while it runs: VmHWM only
    // grows, so the last sample misses at most the last 2 ms. Without /proc, ru_maxrss.
    var status: Int32 = 0
    var usage = rusage()
    var peakKiB = 0
    var sampled = false
    while true {
        let done = wait4(pid, &status, samplePeak ? WNOHANG : 0, &usage)
        if done == pid { break }
        if done < 0 && errno != EINTR { break }
        if let hwm = PeakMemory.highWaterKiB(pid: pid) { peakKiB = max(peakKiB, hwm); sampled = true }
        usleep(2_000)
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    if !sampled { peakKiB = Int(usage.ru_maxrss) }
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    return SpawnResult(status: exit, seconds: elapsed, peakMiB: Double(peakKiB) / 1024, cpuSeconds: cpu)
}
