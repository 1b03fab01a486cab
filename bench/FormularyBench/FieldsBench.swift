import Foundation
import FormularyKit
import FormularyRules

/// The engine's share of a validation run, field by field: `screen(utf8:scratch:)` (batch
/// validation's per-value call) over the sign-up data set's values of each field of
/// `bench/signup.form`, one core, release build. Prints nanoseconds per value, and the sum
/// per entry, which is what the run pays for judging before reading and recording.
func runFieldsBench(count: Int = 400_000) {
    guard let registry = try? SignupForm.registry() else {
        print("fields: cannot read \(SignupForm.path)")
        return
    }
    guard let form = registry.forms["signup"]?.form else {
        print("fields: bench/signup.form has errors")
        return
    }
    let today = SignupForm.today
    var data = SignupData()
    // Each column's values back to back in one buffer, as a page of SQLite rows holds them.
    var bytes = [[UInt8]](repeating: [], count: SignupData.columns.count)
    var ends = [[Int]](repeating: [], count: SignupData.columns.count)
    for _ in 0..<count {
        for (i, value) in data.next().values.enumerated() {
            bytes[i].append(contentsOf: (value ?? "").utf8)
            ends[i].append(bytes[i].count)
        }
    }
    let clock = ContinuousClock()
    var total = 0.0
    for field in form.fields {
        guard let column = SignupData.columns.firstIndex(of: field.key),
              case .success(let plain) = registry.compile(field.type, today: today) else {
            print("fields: cannot compile \(field.key)")
            return
        }
        // As batch validation judges: tuned, which costs once per run.
        var type = plain
        let tuning = clock.measure { type = plain.tunedForBatch() }
        if type !== plain {
            print(String(format: "fields %-6@ tuned for batch runs in %.2f ms", field.key,
                         Double(tuning.components.attoseconds) / 1e15 + Double(tuning.components.seconds) * 1e3))
        }
        let scratch = Scratch()
        var best = Duration.seconds(1_000)
        var clean = 0
        for _ in 0..<3 {
            clean = 0
            let elapsed = clock.measure {
                bytes[column].withUnsafeBytes { all in
                    var start = 0
                    for end in ends[column] {
                        if type.screen(utf8: UnsafeRawBufferPointer(rebasing: all[start..<end]), scratch: scratch) == .clean { clean += 1 }
                        start = end
                    }
                }
            }
            best = min(best, elapsed)
        }
        let ns = (Double(best.components.attoseconds) / 1e9 + Double(best.components.seconds) * 1e9) / Double(count)
        total += ns
        print(String(format: "fields %-6@ %-22@ %6.1f ns/value (%d of %d clean)",
                     field.key, "\(field.type)", ns, clean, count))
    }
    print(String(format: "fields: %.0f ns per entry for the %d fields", total, form.fields.count))
}
