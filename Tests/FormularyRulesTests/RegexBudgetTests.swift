import Testing
@testable import FormularyRules

/// Hostile patterns against hostile values: every match ends within the match budget
/// (a verdict, or the rule `pattern-budget`), whatever the pattern and however long the
/// value, and the work grows linearly with the value's length.
///
/// The time bounds are deliberately loose (seconds where the real figure is milliseconds):
/// they catch a match that runs away — exponential or quadratic work on a megabyte — not a
/// slow machine. `RegexTests` covers the everyday behaviour of patterns.
@Suite struct RegexBudgetTests {
    /// A pattern that backtracks badly and values that make it: `(source, subject(n))`,
    /// where the subject of length about `n` fails only at its very end.
    struct Adversary: Sendable, CustomStringConvertible {
        var source: String
        /// A value the pattern accepts, so the budget is shown not to stop honest values.
        var accepted: String
        var subject: @Sendable (Int) -> String
        var description: String { source }
    }

    static let adversaries: [Adversary] = [
        Adversary(source: "(a+)+$", accepted: "aaaa") { String(repeating: "a", count: $0) + "!" },
        Adversary(source: "(a|aa)+$", accepted: "aaaaa") { String(repeating: "a", count: $0) + "!" },
        Adversary(source: "(a|a?)+$", accepted: "aaa") { String(repeating: "a", count: $0) + "!" },
        Adversary(source: "(\\w+\\s?)*$", accepted: "ab cd ef") {
            String(repeating: "ab ", count: $0 / 3) + "!"
        },
        Adversary(source: "(.*a){12}", accepted: String(repeating: "xa", count: 12)) {
            String(repeating: "a", count: $0) + "!"
        },
        Adversary(source: "(a*)*b", accepted: "aaab") { String(repeating: "a", count: $0) + "b!" },
        // Backreferences: PCRE2 cannot auto-possessify these, and the JIT still runs them.
        Adversary(source: "(a+)+\\1x", accepted: "aaax") { String(repeating: "a", count: $0) + "x!" },
        Adversary(source: "((a|b)+)\\1+c", accepted: "ababc") { String(repeating: "ab", count: $0 / 2) + "c!" },
        Adversary(source: "(?:(x+)y?)*\\1z", accepted: "xxyxz") { String(repeating: "x", count: $0) + "yz" },
    ]

    static let kilobyte = 1 << 10

    /// Compiles a pattern type, accepting the `regex-backtracking` warning that the loader
    /// gives such patterns (a warning: the type still loads).
    static func type(_ source: String) throws -> CompiledFieldType {
        let d = definition(checks: [check(.pattern(source: source, flags: []))])
        let (compiled, diagnostics) = FieldCompiler.compile(d, arguments: [:], today: testToday)
        #expect(!diagnostics.contains { $0.severity == .error }, "\(source): \(diagnostics)")
        return try #require(compiled, "\(source) does not compile")
    }

    /// The minimum of `runs` timings: the least disturbed by other work on the machine.
    static func fastest(of runs: Int = 3, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        return (0..<runs).map { _ in clock.measure(body) }.min()!
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    @Test(arguments: adversaries)
    func everyAdversaryEndsWithinTheBudget(_ adversary: Adversary) throws {
        let type = try Self.type(adversary.source)
        #expect(type.isValid(adversary.accepted), "the budget must not stop an honest value")
        for size in [Self.kilobyte, 64 * Self.kilobyte, 1024 * Self.kilobyte] {
            let value = adversary.subject(size)
            let clock = ContinuousClock()
            var result: FieldResult?
            let elapsed = clock.measure { result = type.validate(value) }
            let rules = result?.violations.map(\.rule) ?? []
            #expect(result?.verdict == .invalid, "\(adversary) on \(size) bytes")
            #expect(rules == ["pattern"] || rules == ["pattern-budget"], "\(adversary) on \(size) bytes: \(rules)")
            #expect(elapsed < .seconds(2), "\(adversary) on \(size) bytes took \(elapsed)")

            var live: FieldResult?
            let liveElapsed = clock.measure { live = type.validate(value, stage: .live) }
            let liveRules = live?.violations.map(\.rule) ?? []
            #expect(liveRules.allSatisfy { $0 == "pattern" || $0 == "pattern-budget" }, "\(adversary) live: \(liveRules)")
            #expect(live?.verdict != .valid, "\(adversary) live on \(size) bytes")
            #expect(liveElapsed < .seconds(4), "\(adversary) live on \(size) bytes took \(liveElapsed)")
            if size == 1024 * Self.kilobyte {
                // The figures docs/reliability.md quotes.
                print("regex-budget 1 MB \(adversary): final \(elapsed) \(rules), live \(liveElapsed) \(liveRules)")
            }
        }
    }

    /// The classic exponential cases really are stopped by the budget (not answered by
    /// luck of an optimisation), and a stopped match is an error, never a pass.
    @Test func exponentialBacktrackingIsReportedAsPatternBudget() throws {
        for source in ["(a+)+$", "(a|aa)+$", "(a|a?)+$"] {
            let type = try Self.type(source)
            for size in [30, Self.kilobyte, 64 * Self.kilobyte] {
                let result = type.validate(String(repeating: "a", count: size) + "!")
                #expect(result.violations.map(\.rule) == ["pattern-budget"], "\(source) on \(size)")
                #expect(result.violations.first?.severity == .error)
                #expect(!type.isValid(String(repeating: "a", count: size) + "!"))
            }
        }
    }

    /// A backreference compares many bytes in one step, so patterns with backreferences get
    /// fewer steps on long values: the bytes compared stay bounded (quadratic before: 1 MB of
    /// "ab" against `((a|b)+)\1+c` ran for minutes), while short values keep the full budget.
    @Test func backreferencesBoundTheBytesCompared() throws {
        for n in [0, 1, 1_000, 3_000, 64 * Self.kilobyte, 1024 * Self.kilobyte, 16 << 20] {
            let plain = Int(RegexProgram.matchLimit(forSubjectLength: n))
            let limited = Int(RegexProgram.matchLimit(forSubjectLength: n, backreferences: true))
            #expect(limited <= plain)
            #expect(limited >= 1_000)
            #expect(limited == 1_000 || limited * n <= RegexProgram.backreferenceWork, "\(n)")
            if n <= 3_000 { #expect(limited == plain, "short values keep the whole budget") }
        }
        let type = try Self.type("((a|b)+)\\1+c")
        #expect(type.isValid("abababc"))
        #expect(type.isValid(String(repeating: "ab", count: 500) + String(repeating: "ab", count: 500) + "c"))
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = type.validate(String(repeating: "ab", count: 512 * Self.kilobyte) + "c!") }
        #expect(elapsed < .seconds(2), "took \(elapsed)")
    }

    /// Live (partial) matching looks for a complete match after finding a partial one, so
    /// an ambiguous pattern on a long valid prefix backtracks as badly: it too must stop.
    @Test func liveStageRunsUnderTheSameBudget() throws {
        let type = try Self.type("(a|aa)+b")
        #expect(type.live("aaab") == .valid)
        #expect(type.live("aaa") == .incomplete)
        #expect(type.live("aac") == .invalid)
        for size in [Self.kilobyte, 64 * Self.kilobyte, 1024 * Self.kilobyte] {
            let prefix = String(repeating: "a", count: size)
            let clock = ContinuousClock()
            var result: FieldResult?
            let elapsed = clock.measure { result = type.validate(prefix, stage: .live) }
            let rules = result?.violations.map(\.rule) ?? []
            #expect(result?.verdict == .incomplete || rules == ["pattern-budget"], "\(size): \(String(describing: result?.verdict)) \(rules)")
            #expect(elapsed < .seconds(4), "\(size) bytes took \(elapsed)")
            let stuck = prefix + "c"
            let stuckElapsed = clock.measure { result = type.validate(stuck, stage: .live) }
            #expect(result?.verdict == .invalid, "\(size)")
            #expect(stuckElapsed < .seconds(4), "\(size) bytes took \(stuckElapsed)")
        }
    }

    /// A quarter of the value should take about a quarter of the time; quadratic work would
    /// make the ratio 16. The bound 8 leaves room for a noisy machine, and each figure is
    /// the fastest of several runs.
    @Test func timeGrowsLinearlyWithTheValue() throws {
        let cases: [(source: String, subject: (Int) -> String, rules: [String])] = [
            ("[a-z]+(?:-[a-z]+)*", { String(repeating: "abc-", count: $0 / 4) + "z" }, []),
            ("(?:[a-z]{2})+", { String(repeating: "ab", count: $0 / 2) }, []),
            ("(a+)+$", { String(repeating: "a", count: $0) + "!" }, ["pattern-budget"]),
            ("(\\w+\\s?)*$", { String(repeating: "ab ", count: $0 / 3) + "!" }, ["pattern", "pattern-budget"]),
        ]
        for (source, subject, rules) in cases {
            let type = try Self.type(source)
            let small = subject(256 * Self.kilobyte), large = subject(1024 * Self.kilobyte)
            for value in [small, large] {
                let failed = type.validate(value).violations.map(\.rule)
                #expect(rules.isEmpty ? failed.isEmpty : failed.allSatisfy(rules.contains) && !failed.isEmpty,
                        "\(source): \(failed)")
            }
            _ = type.isValid(small)   // warm up the thread's scratch and JIT stack
            let t256 = Self.fastest { _ = type.isValid(small) }
            let t1024 = Self.fastest { _ = type.isValid(large) }
            let ratio = Self.seconds(t1024) / max(Self.seconds(t256), 1e-6)
            print("regex-budget \(source): 256 KB \(t256), 1 MB \(t1024), ratio \(ratio)")
            #expect(ratio < 8, "\(source): 256 KB took \(t256), 1 MB \(t1024) (ratio \(ratio))")
        }
    }
}
