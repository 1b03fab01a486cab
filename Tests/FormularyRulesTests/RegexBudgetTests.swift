import Testing
@testable import FormularyRules

/// Hostile patterns against hostile values: every match ends within the match budget
/// (a verdict, or the rule `pattern-budget`), whatever the pattern and however long the
/// value, and the work grows linearly with the value's length.
///
/// Nothing here is timed: the tests ask PCRE2 what a match did — whether it stopped on the
/// step budget (`PCRE2_ERROR_MATCHLIMIT`, never on memory) and how many steps it needs — so
/// a loaded machine cannot fail them. The timings live in the bench (`FormularyBench
/// regex`). `RegexTests` covers the everyday behaviour of patterns.
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

    @Test(arguments: adversaries)
    func everyAdversaryEndsWithinTheBudget(_ adversary: Adversary) throws {
        let type = try Self.type(adversary.source)
        let program = try #require(type.patternProgram)
        #expect(type.isValid(adversary.accepted), "the budget must not stop an honest value")
        for size in [Self.kilobyte, 64 * Self.kilobyte, 1024 * Self.kilobyte] {
            let value = adversary.subject(size)
            let result = type.validate(value)
            let rules = result.violations.map(\.rule)
            #expect(result.verdict == .invalid, "\(adversary) on \(size) bytes")
            #expect(rules == ["pattern"] || rules == ["pattern-budget"], "\(adversary) on \(size) bytes: \(rules)")
            // The match ended by itself (no match) or on the step budget — never on memory
            // or another error — and the verdict says which.
            let work = program.work(on: value)
            #expect(work.outcome == .noMatch || work.stoppedOnMatchLimit, "\(adversary) on \(size) bytes: \(work)")
            #expect((rules == ["pattern-budget"]) == work.stoppedOnMatchLimit, "\(adversary) on \(size) bytes: \(work)")

            let live = type.validate(value, stage: .live)
            let liveRules = live.violations.map(\.rule)
            #expect(liveRules.allSatisfy { $0 == "pattern" || $0 == "pattern-budget" }, "\(adversary) live: \(liveRules)")
            #expect(live.verdict != .valid, "\(adversary) live on \(size) bytes")
            let liveWork = program.work(on: value, partial: true)
            #expect(liveWork.outcome == .noMatch || liveWork.outcome == .partial || liveWork.stoppedOnMatchLimit,
                    "\(adversary) live on \(size) bytes: \(liveWork)")
            #expect(liveRules.contains("pattern-budget") == liveWork.stoppedOnMatchLimit,
                    "\(adversary) live on \(size) bytes: \(liveWork)")
        }
    }

    /// The classic exponential cases really are stopped by the budget (not answered by
    /// luck of an optimisation), and a stopped match is an error, never a pass.
    @Test func exponentialBacktrackingIsReportedAsPatternBudget() throws {
        for source in ["(a+)+$", "(a|aa)+$", "(a|a?)+$"] {
            let type = try Self.type(source)
            let program = try #require(type.patternProgram)
            for size in [30, Self.kilobyte, 64 * Self.kilobyte] {
                let value = String(repeating: "a", count: size) + "!"
                let result = type.validate(value)
                #expect(result.violations.map(\.rule) == ["pattern-budget"], "\(source) on \(size)")
                #expect(result.violations.first?.severity == .error)
                #expect(!type.isValid(value))
                #expect(program.work(on: value).stoppedOnMatchLimit, "\(source) on \(size)")
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
        let program = try #require(type.patternProgram)
        #expect(program.hasBackreferences)
        #expect(type.isValid("abababc"))
        #expect(type.isValid(String(repeating: "ab", count: 500) + String(repeating: "ab", count: 500) + "c"))
        // The megabyte value runs under the capped budget, and that is what stops it.
        let value = String(repeating: "ab", count: 512 * Self.kilobyte) + "c!"
        let work = program.work(on: value)
        #expect(work.budget == RegexProgram.matchLimit(forSubjectLength: value.utf8.count, backreferences: true))
        #expect(work.budget < RegexProgram.matchLimit(forSubjectLength: value.utf8.count))
        #expect(work.stoppedOnMatchLimit, "\(work)")
        #expect(type.validate(value).violations.map(\.rule) == ["pattern-budget"])
        // A pattern without backreferences keeps the plain budget on the same value.
        let plainProgram = try #require(try Self.type("(?:a|b)+c").patternProgram)
        #expect(!plainProgram.hasBackreferences)
        #expect(plainProgram.work(on: value).budget == RegexProgram.matchLimit(forSubjectLength: value.utf8.count))
    }

    /// Live (partial) matching looks for a complete match after finding a partial one, so
    /// an ambiguous pattern on a long valid prefix backtracks as badly: it too must stop.
    @Test func liveStageRunsUnderTheSameBudget() throws {
        let type = try Self.type("(a|aa)+b")
        let program = try #require(type.patternProgram)
        #expect(type.live("aaab") == .valid)
        #expect(type.live("aaa") == .incomplete)
        #expect(type.live("aac") == .invalid)
        for size in [Self.kilobyte, 64 * Self.kilobyte, 1024 * Self.kilobyte] {
            let prefix = String(repeating: "a", count: size)
            let result = type.validate(prefix, stage: .live)
            let rules = result.violations.map(\.rule)
            #expect(result.verdict == .incomplete || rules == ["pattern-budget"], "\(size): \(result.verdict) \(rules)")
            let work = program.work(on: prefix, partial: true)
            #expect(work.outcome == .partial || work.stoppedOnMatchLimit, "\(size): \(work)")
            #expect(work.budget == RegexProgram.matchLimit(forSubjectLength: size))
            let stuck = prefix + "c"
            #expect(type.validate(stuck, stage: .live).verdict == .invalid, "\(size)")
            let stuckWork = program.work(on: stuck, partial: true)
            #expect(stuckWork.outcome == .noMatch || stuckWork.stoppedOnMatchLimit, "\(size): \(stuckWork)")
        }
    }

    /// Four times the value takes at most about four times the steps (quadratic work would
    /// take sixteen): patterns that finish need steps in proportion to the value, and
    /// patterns the budget stops are stopped after a number of steps that grows the same way.
    /// Steps are PCRE2's own count, so unlike a timing this cannot be upset by a busy
    /// machine; `FormularyBench regex` prints the times.
    @Test func workGrowsLinearlyWithTheValue() throws {
        let cases: [(source: String, subject: (Int) -> String, rules: [String])] = [
            ("[a-z]+(?:-[a-z]+)*", { String(repeating: "abc-", count: $0 / 4) + "z" }, []),
            ("(?:[a-z]{2})+", { String(repeating: "ab", count: $0 / 2) }, []),
            ("(a+)+$", { String(repeating: "a", count: $0) + "!" }, ["pattern-budget"]),
            ("(\\w+\\s?)*$", { String(repeating: "ab ", count: $0 / 3) + "!" }, ["pattern", "pattern-budget"]),
        ]
        for (source, subject, rules) in cases {
            let type = try Self.type(source)
            let program = try #require(type.patternProgram)
            let small = subject(256 * Self.kilobyte), large = subject(1024 * Self.kilobyte)
            var steps: [UInt32] = []
            for value in [small, large] {
                let failed = type.validate(value).violations.map(\.rule)
                #expect(rules.isEmpty ? failed.isEmpty : failed.allSatisfy(rules.contains) && !failed.isEmpty,
                        "\(source): \(failed)")
                let work = program.work(on: value, countingSteps: true)
                #expect(work.stepsNeeded != nil || work.stoppedOnMatchLimit, "\(source): \(work)")
                // A pattern the budget stops has done exactly its budget of steps.
                steps.append(work.stepsNeeded ?? work.budget)
            }
            let ratio = Double(steps[1]) / Double(max(steps[0], 1))
            #expect(Double(steps[1]) <= 4.2 * Double(steps[0]) + 1_000,
                    "\(source): 256 KB needs \(steps[0]) steps, 1 MB \(steps[1]) (ratio \(ratio))")
        }
    }
}

/// What one match did, read from PCRE2 rather than from a clock.
struct RegexWork: CustomStringConvertible {
    /// The steps the program allows on this value.
    var budget: UInt32
    /// How the match ended under that budget.
    var outcome: RegexProgram.Outcome
    /// Whether it ended on the step budget (PCRE2_ERROR_MATCHLIMIT), not on memory or
    /// another error.
    var stoppedOnMatchLimit: Bool
    /// The fewest steps under which the match ends by itself (nil: the budget stopped it, or
    /// the steps were not counted).
    var stepsNeeded: UInt32?

    var description: String {
        "\(outcome), budget \(budget), " + (stoppedOnMatchLimit ? "stopped on the match limit"
                                                               : "steps needed \(stepsNeeded.map(String.init) ?? "?")")
    }
}

extension CompiledFieldType {
    /// The program of the type's first `pattern` check.
    var patternProgram: RegexProgram? {
        for check in checks { if case .pattern(let program) = check.kind { return program } }
        return nil
    }
}

extension RegexProgram {
    /// Runs the match on `value` (as the engine would, with its budget) and, with
    /// `countingSteps`, when it ends by itself, finds the fewest steps it needs by bisecting
    /// the match limit: PCRE2 counts steps the same way on every run, so a match that ends
    /// under a limit ends under any larger one.
    func work(on value: String, partial: Bool = false, countingSteps: Bool = false) -> RegexWork {
        let bytes = Array(value.utf8)
        let scratch = RegexScratch()
        return bytes.withUnsafeBufferPointer { subject in
            let budget = budget(forSubjectLength: subject.count)
            let rc = run(subject, partial: partial, scratch: scratch, matchLimit: budget)
            let stopped = RegexProgram.stoppedOnMatchLimit(rc)
            var stepsNeeded: UInt32?
            if !stopped && countingSteps {
                var (low, high) = (UInt32(0), budget)   // stopped under low, ends under high
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    let stoppedThere = RegexProgram.stoppedOnMatchLimit(
                        run(subject, partial: partial, scratch: scratch, matchLimit: middle))
                    if stoppedThere { low = middle } else { high = middle }
                }
                stepsNeeded = high
            }
            return RegexWork(budget: budget, outcome: RegexProgram.outcome(rc), stoppedOnMatchLimit: stopped,
                             stepsNeeded: stepsNeeded)
        }
    }
}
