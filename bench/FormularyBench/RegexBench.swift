import FormularyRules

/// The regex budget's figures, release build, one core: how long hostile patterns take on
/// values of 1 KB, 64 KB and 1 MB built to fail only at their end (final and live stage),
/// how the time grows from 256 KB to 1 MB, and how long linear patterns take on a megabyte.
///
/// The tests (`RegexBudgetTests`, `RegexTests`) prove what a match does — it ends on its own
/// or on the step budget, and its steps grow linearly — without a clock; this suite prints
/// what that costs. Each figure is the fastest of three runs. docs/reliability.md quotes it.
func runRegexBench() {
    print("Regex budget: adversarial values (fastest of 3; final / live; the rule reported)")
    for (source, subject) in regexAdversaries {
        guard let type = compilePattern(source) else { continue }
        var cells: [String] = []
        for size in [1 << 10, 64 << 10, 1 << 20] {
            let value = subject(size)
            let final = Timing.fastest { _ = type.validate(value) }
            let live = Timing.fastest { _ = type.validate(value, stage: .live) }
            let rules = type.validate(value).violations.map(\.rule).joined(separator: ",")
            cells.append("\(sizeName(size)) \(Timing.milliseconds(final)) / \(Timing.milliseconds(live)) \(rules)")
        }
        print("  \(source.padding(toLength: 16, withPad: " ", startingAt: 0)) " + cells.joined(separator: "; "))
    }

    print("Regex budget: growth from 256 KB to 1 MB (fastest of 3; 4 is linear, 16 quadratic)")
    let growth: [(String, (Int) -> String)] = [
        ("[a-z]+(?:-[a-z]+)*", { String(repeating: "abc-", count: $0 / 4) + "z" }),
        ("(?:[a-z]{2})+", { String(repeating: "ab", count: $0 / 2) }),
        ("(a+)+$", { String(repeating: "a", count: $0) + "!" }),
        ("(\\w+\\s?)*$", { String(repeating: "ab ", count: $0 / 3) + "!" }),
    ]
    for (source, subject) in growth {
        guard let type = compilePattern(source) else { continue }
        let small = subject(256 << 10), large = subject(1 << 20)
        _ = type.isValid(small)   // warm up the thread's scratch and JIT stack
        let t256 = Timing.fastest { _ = type.isValid(small) }
        let t1024 = Timing.fastest { _ = type.isValid(large) }
        let ratio = Timing.seconds(t1024) / max(Timing.seconds(t256), 1e-9)
        print("  \(source): 256 KB \(Timing.milliseconds(t256)), 1 MB \(Timing.milliseconds(t1024)), ×\(Timing.rounded(ratio, 1))")
    }

    print("Regex: linear patterns on a 1 MB value that passes (fastest of 3)")
    let big = String(repeating: "abcdefghij", count: 100_000)
    for source in ["[a-z]+", "\\w+", "(?:abcdefghij)+", "[a-j]*j", "(?:[a-z]{2})+"] {
        guard let type = compilePattern(source) else { continue }
        let final = Timing.fastest { _ = type.isValid(big) }
        let live = Timing.fastest { _ = type.validate(big, stage: .live) }
        print("  \(source): final \(Timing.milliseconds(final)), live \(Timing.milliseconds(live))")
    }
}

/// The adversaries of `RegexBudgetTests`: a pattern that backtracks badly and a value of
/// about `n` bytes that fails only at its end.
let regexAdversaries: [(String, @Sendable (Int) -> String)] = [
    ("(a+)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(a|aa)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(a|a?)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(\\w+\\s?)*$", { String(repeating: "ab ", count: $0 / 3) + "!" }),
    ("(.*a){12}", { String(repeating: "a", count: $0) + "!" }),
    ("(a*)*b", { String(repeating: "a", count: $0) + "b!" }),
    ("(a+)+\\1x", { String(repeating: "a", count: $0) + "x!" }),
    ("((a|b)+)\\1+c", { String(repeating: "ab", count: $0 / 2) + "c!" }),
    ("(?:(x+)y?)*\\1z", { String(repeating: "x", count: $0) + "yz" }),
]

private let here = SourceLocation(file: "bench", line: 1, column: 1)

/// A type whose one check is `pattern /source/`; nil (and a line saying why) if it does not
/// compile. The loader's `regex-backtracking` warning is expected for the adversaries.
private func compilePattern(_ source: String) -> CompiledFieldType? {
    let check = CheckRule(kind: .pattern(source: source, flags: []),
                          options: RuleOptions(name: "pattern", location: here))
    let definition = FieldTypeDefinition(name: "p", checks: [check], location: here)
    let (compiled, diagnostics) = FieldCompiler.compile(definition, arguments: [:],
                                                        today: CivilDate(year: 2026, month: 11, day: 29))
    if compiled == nil { print("  \(source): does not compile: \(diagnostics.map(\.message))") }
    return compiled
}

private func sizeName(_ n: Int) -> String { n >= 1 << 20 ? "\(n >> 20) MB" : "\(n >> 10) KB" }
