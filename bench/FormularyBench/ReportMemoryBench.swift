import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Peak memory and first output of `report` (every format and grouping) and the peak of
/// `entries list --failing` on a large store: 1M sign-up entries with 30% carrying a defect
/// (about 300k failing), imported and validated by the release `formulary`, each command in
/// its own process, its own peak RSS (VmHWM) sampled. Reports aggregate in SQLite and
/// stream, so the targets are a peak under 64 MiB whatever the number of failures and the
/// first line within a second: text, JSON and CSV are read from a pseudo-terminal (the
/// progress line on another), HTML from a pipe (on a terminal it goes to a file). A JSON
/// report is one line: its first byte counts. `FORMULARY_BENCH_ENTRIES` picks another size;
/// `FORMULARY_BENCH_BASELINE=PATH` runs that other `formulary` before each report, in turn,
/// for a before/after on the same store.
func runReportMemoryBench() {
    let size = ProcessInfo.processInfo.environment["FORMULARY_BENCH_ENTRIES"].flatMap(Int.init) ?? 1_000_000
    let binary = (CommandLine.arguments[0] as NSString).resolvingSymlinksInPath
    let formulary = ((binary as NSString).deletingLastPathComponent as NSString).appendingPathComponent("formulary")
    guard FileManager.default.isExecutableFile(atPath: formulary) else {
        print("report-memory: no formulary binary next to the benchmark (\(formulary)); run `swift build -c release` first")
        return
    }
    let folder = NSTemporaryDirectory() + "formulary-report-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let benchFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
    let csv = folder + "/signup.csv", db = folder + "/signup.db"
    // TERM: the reports on a pseudo-terminal draw their progress line, as for a user.
    let env = ["FORMULARY_TODAY=2026-11-29", "NO_COLOR=1", "TERM=xterm", "USER=bench", "FORMULARY_PATH=", "PATH=/usr/bin:/bin",
               "FORMULARY_DB=\(db)"]
    guard SignupData.writeCSV(count: size, to: csv, defectPercent: 30) else { print("report-memory: cannot write \(csv)"); return }
    _ = spawn(formulary, ["init"], env)
    guard let imported = spawn(formulary, ["--plugins", benchFolder, "import", "--form", "signup", csv], env),
          imported.status == 0 else { print("report-memory: import failed"); return }
    guard let validated = spawn(formulary, ["--plugins", benchFolder, "validate"], env), validated.status <= 1 else {
        print("report-memory: validate failed"); return
    }
    print(String(format: "report-memory: %d entries (30%% with a defect) imported in %.1f s, validated in %.1f s",
                 size, imported.seconds, validated.seconds))
    let baseline = ProcessInfo.processInfo.environment["FORMULARY_BENCH_BASELINE"].flatMap { $0.isEmpty ? nil : $0 }
    let binaries = (baseline.map { [("before", $0)] } ?? []) + [(baseline == nil ? "" : "after", formulary)]
    var worst = 0.0
    var slowestFirstLine = 0.0
    func measure(_ label: String) {
        print("report-memory: \(label)")
        for format in ["text", "json", "csv", "html"] {
            for by in ["rule", "field", "type", "entry"] {
                for (name, binary) in binaries {
                    let arguments = ["--plugins", benchFolder, "report", "--format", format, "--by", by]
                    guard let r = spawnReadingOutput(binary, arguments, env, terminal: format != "html"), r.status == 0 else {
                        print("report-memory: \(name) report --format \(format) --by \(by) failed"); continue
                    }
                    // A JSON document is one line: what a reader sees first is its first byte.
                    let first = (format == "json" ? r.firstByte : r.firstLine) ?? r.seconds
                    if binary == formulary {
                        worst = max(worst, r.peakMiB)
                        slowestFirstLine = max(slowestFirstLine, first)
                    }
                    print(String(format: "  report --format %-4@ --by %-5@ %@ first %@ %6.2f s  all %6.2f s  %7.2f MB  peak RSS %5.1f MiB",
                                 format as NSString, by as NSString,
                                 name.padding(toLength: 6, withPad: " ", startingAt: 0) as NSString,
                                 (format == "json" ? "byte" : "line") as NSString, first, r.seconds,
                                 Double(r.bytes) / 1e6, r.peakMiB))
                }
            }
        }
        for format in ["text", "json"] {
            guard let r = spawn(formulary, ["entries", "list", "--failing", "--limit", "0", "--format", format], env,
                                samplePeak: true), r.status == 0 else { print("report-memory: entries list failed"); continue }
            worst = max(worst, r.peakMiB)
            print(String(format: "  entries list --failing --limit 0 --format %@  %6.2f s  peak RSS %5.1f MiB",
                         format as NSString, r.seconds, r.peakMiB))
        }
    }
    measure("run 1, which judged every entry")
    // An unchanged re-validation holds no result row of its own: it shares run 1's, and every
    // report and list of it reads them through the view run_results_all.
    guard let again = spawn(formulary, ["--plugins", benchFolder, "validate"], env), again.status <= 1 else {
        print("report-memory: the second validate failed"); return
    }
    print(String(format: "report-memory: re-validated unchanged in %.2f s", again.seconds))
    measure("run 2, which shares run 1's results")
    print(String(format: "report-memory: worst peak RSS %.1f MiB (target < 64 MiB)%@", worst,
                 worst < 64 ? "" : " — OVER TARGET"))
    print(String(format: "report-memory: slowest first line of a report %.2f s (target < 1 s)%@", slowestFirstLine,
                 slowestFirstLine < 1 ? "" : " — OVER TARGET"))
}
