import Foundation
import FormularyKit
import FormularyRules
import FormularyStore

/// What `unique email` costs a validation run: the sign-up data set (``SignupData``) at
/// 1,000,000 entries (or `FORMULARY_UNIQUE_BENCH_SIZE`), judged alternately with
/// `bench/signup.form` and `bench/unique/signup.form`, each run in a child process; best of
/// seven each (the machine is shared and noisy). The issue's target: at most 20% slower.
func runUniqueBench() {
    let size = ProcessInfo.processInfo.environment["FORMULARY_UNIQUE_BENCH_SIZE"].flatMap(Int.init) ?? 1_000_000
    let tries = ProcessInfo.processInfo.environment["FORMULARY_UNIQUE_BENCH_TRIES"].flatMap(Int.init) ?? 7
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-unique-bench-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("signup-\(size).db").path
    do {
        let store = try Store(path: path)
        try store.migrate()
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "bench", source: "bench")
            let layout = try writer.layoutID(for: SignupData.columns)
            var data = SignupData()
            for _ in 0..<size { try writer.add(layoutID: layout, values: data.next().values) }
        }
    } catch {
        print("validate-unique: \(error)")
        return
    }
    var best: [Bool: ChildFigures] = [:]
    for attempt in 1...tries {
        for unique in [false, true] {
            guard let child = runChild(path: path, rememberValues: true, unique: unique) else { return }
            print("validate-unique \(size) run \(attempt) \(unique ? "unique email" : "plain       "): "
                  + "\(String(format: "%.3f", child.seconds)) s, CPU \(String(format: "%.3f", child.cpu)) s, "
                  + "peak RSS \(child.maxRSSKiB / 1024) MiB, \(child.invalid) invalid")
            if best[unique].map({ child.seconds < $0.seconds }) ?? true { best[unique] = child }
        }
    }
    guard let plain = best[false], let unique = best[true] else { return }
    let slower = (unique.seconds / plain.seconds - 1) * 100
    print("validate-unique \(size) best of \(tries): plain \(String(format: "%.3f", plain.seconds)) s, "
          + "unique email \(String(format: "%.3f", unique.seconds)) s: \(String(format: "%+.1f", slower))% "
          + "(target ≤ +20%); peak RSS \(plain.maxRSSKiB / 1024) → \(unique.maxRSSKiB / 1024) MiB; "
          + "invalid \(plain.invalid) → \(unique.invalid)")
}
