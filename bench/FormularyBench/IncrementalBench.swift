import Foundation
import FormularyKit
import FormularyStore

/// Incremental runs (docs/storage.md, "Incremental runs") on the sign-up data set at
/// 1,000,000 entries (or `FORMULARY_INCREMENTAL_BENCH_SIZE`): full runs (`validate --all`)
/// against runs of the unchanged store, which judge nothing and carry every result forward
/// (target: under 5% of a full run), then runs after 1% new entries. Each run is a child
/// process, as in `validate`; the best of `FORMULARY_INCREMENTAL_BENCH_TRIES` (5) is the figure.
func runIncrementalBench() {
    let environment = ProcessInfo.processInfo.environment
    let size = environment["FORMULARY_INCREMENTAL_BENCH_SIZE"].flatMap(Int.init) ?? 1_000_000
    let tries = max(1, environment["FORMULARY_INCREMENTAL_BENCH_TRIES"].flatMap(Int.init) ?? 5)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-incremental-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("signup-\(size).db").path
    do {
        try benchIncremental(size: size, tries: tries, path: path)
    } catch {
        print("validate-incremental \(size): \(error)")
    }
}

private func benchIncremental(size: Int, tries: Int, path: String) throws {
    let store = try Store(path: path)
    try store.migrate()
    var data = SignupData()
    func insert(_ count: Int) throws {
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "bench", source: "bench")
            let layout = try writer.layoutID(for: SignupData.columns)
            for _ in 0..<count { try writer.add(layoutID: layout, values: data.next().values) }
            _ = try writer.recordAudit()
        }
    }
    try insert(size)
    let label = "validate-incremental \(size)"
    func best(_ name: String, incremental: Bool, before: () throws -> Void = {}) throws -> ChildFigures? {
        var runs: [ChildFigures] = []
        for attempt in 1...tries {
            try before()
            guard let child = runChild(path: path, rememberValues: true, incremental: incremental) else { return nil }
            runs.append(child)
            print("\(label) \(name) run \(attempt): \(child.entries) entries (\(child.entries - child.carried) judged, "
                  + "\(child.carried) carried forward) in \(String(format: "%.4f", child.seconds)) s, "
                  + "\(child.invalid) invalid, peak RSS \(child.maxRSSKiB / 1024) MiB")
        }
        return runs.min { $0.seconds < $1.seconds }
    }
    guard let full = try best("full (--all)", incremental: false),
          let unchanged = try best("unchanged, incremental", incremental: true) else { return }
    let share = unchanged.seconds / full.seconds * 100
    print("\(label): full run \(String(format: "%.3f", full.seconds)) s, unchanged incremental run "
          + "\(String(format: "%.4f", unchanged.seconds)) s = \(String(format: "%.1f", share))% of a full run "
          + "(target < 5%), best of \(tries) each; same invalid count: \(full.invalid == unchanged.invalid)")
    let added = max(1, size / 100)
    guard let grown = try best("after \(added) new entries, incremental", incremental: true,
                               before: { try insert(added) }) else { return }
    print("\(label): after 1% new entries, incremental run \(String(format: "%.4f", grown.seconds)) s = "
          + "\(String(format: "%.1f", grown.seconds / full.seconds * 100))% of a full run")
}
