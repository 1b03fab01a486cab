import FormularyRules
import PCRE2Oracle

/// Formulary's own pattern automata against PCRE2 (JIT, anchored at both ends: what the
/// engine ran before), release build, one core.
///
/// 1. Every built-in pattern (checks and mask conditions) on its type's example values as the
///    check sees them (normalized and formatted): nanoseconds per match, ours beside PCRE2's.
/// 2. Compile time: every built-in type (parse to compiled type, its patterns compiled cold)
///    and, for each built-in pattern, ours (parse, automata, minimization) beside PCRE2's
///    (compile and JIT).
/// 3. The adversarial patterns: compile time, and a match on 1 MB values, final and live.
///    PCRE2 is not run on these values: without a match budget it would not finish.
func runPatternBench() {
    let today = CivilDate(year: 2026, month: 11, day: 29)
    guard let catalog = try? FieldCatalog.builtin(today: today) else {
        print("patterns: cannot load the built-in types")
        return
    }
    let clock = ContinuousClock()
    print("Patterns: ns per match, ours beside PCRE2 JIT (each built-in pattern on its type's example values;")
    print("  interleaved runs, fastest of 15 each)")
    print("  type          rule      kind  states  values      ours    PCRE2   ratio")
    var totals = (ours: 0.0, pcre: 0.0)
    var hits = 0   // consumed below, so that no match is optimized away
    for name in catalog.typeNames {
        guard let definition = try? catalog.definition(named: name), let type = try? catalog.fieldType(name) else { continue }
        let values = definition.examples.map { type.format($0.value) }.filter { !$0.isEmpty }
        guard !values.isEmpty else { continue }
        var patterns: [(rule: String, source: String, flags: RegexFlags)] = []
        for check in definition.checks {
            if case .pattern(let source, let flags, _) = check.kind { patterns.append((check.options.name, source, flags)) }
        }
        for mask in definition.masks {
            if let condition = mask.condition { patterns.append(("when", condition.source, condition.flags)) }
        }
        for (rule, source, flags) in patterns {
            guard let ours = PatternProgram.uncached(source, flags: flags),
                  let theirs = try? PCRE2Pattern(source, caseInsensitive: flags.contains(.caseInsensitive),
                                                 extended: flags.contains(.extended)) else {
                print("  \(name) /\(source)/: does not compile")
                continue
            }
            let buffers = values.map { Array($0.utf8) }
            let rounds = max(1, 100_000 / buffers.count)
            let scratch = Scratch()
            var agree = true
            for bytes in buffers {
                bytes.withUnsafeBufferPointer { b in
                    if ours.matches(b, scratch: scratch) != theirs.matches(b) { agree = false }
                }
            }
            // Interleaved, fastest of fifteen each: the machine's load shifts from second to second.
            var oursTime = Duration.seconds(1_000), pcreTime = Duration.seconds(1_000)
            for _ in 0..<15 {
                oursTime = min(oursTime, clock.measure {
                    for _ in 0..<rounds {
                        for bytes in buffers { bytes.withUnsafeBufferPointer { if ours.matches($0, scratch: scratch) { hits += 1 } } }
                    }
                })
                pcreTime = min(pcreTime, clock.measure {
                    for _ in 0..<rounds {
                        for bytes in buffers { bytes.withUnsafeBufferPointer { if theirs.matches($0) { hits += 1 } } }
                    }
                })
            }
            let matches = Double(rounds * buffers.count)
            let oursNS = Timing.seconds(oursTime) * 1e9 / matches, pcreNS = Timing.seconds(pcreTime) * 1e9 / matches
            totals.ours += oursNS
            totals.pcre += pcreNS
            let cells = [pad(name, 13), pad(rule, 9), pad(ours.isDFA ? "dfa" : "nfa", 5),
                         pad(String(ours.automaton.transitions.count), 7, left: true),
                         pad(String(values.count), 7, left: true),
                         pad(Timing.rounded(oursNS, 1), 9, left: true), pad(Timing.rounded(pcreNS, 1), 8, left: true),
                         pad(Timing.rounded(oursNS / pcreNS, 2), 7, left: true)]
            print("  " + cells.joined(separator: " ") + (agree ? "" : "  (verdicts differ!)"))
        }
    }
    print("  sum of the per-match times: ours \(Timing.rounded(totals.ours, 1)) ns, PCRE2 \(Timing.rounded(totals.pcre, 1)) ns (\(hits) matches)")

    print("Patterns: compile time of every built-in type, its patterns compiled cold (fastest of 3)")
    for name in catalog.typeNames {
        guard let definition = try? catalog.definition(named: name) else { continue }
        let time = Timing.fastest {
            PatternCache.shared.removeAll()
            _ = FieldCompiler.compile(definition, arguments: [:], today: today)
        }
        print("  \(pad(name, 13)) \(Timing.milliseconds(time))")
    }
    print("Patterns: compile time of each built-in pattern, ours (automata) beside PCRE2 (compile + JIT)")
    var seen: Set<String> = []
    for name in catalog.typeNames {
        guard let definition = try? catalog.definition(named: name) else { continue }
        var sources: [(String, RegexFlags)] = definition.checks.compactMap {
            if case .pattern(let source, let flags, _) = $0.kind { return (source, flags) }
            return nil
        }
        sources += definition.masks.compactMap { $0.condition.map { ($0.source, $0.flags) } }
        for (source, flags) in sources where seen.insert(source).inserted {
            let ours = Timing.fastest { _ = PatternProgram.uncached(source, flags: flags) }
            let theirs = Timing.fastest {
                _ = try? PCRE2Pattern(source, caseInsensitive: flags.contains(.caseInsensitive), extended: flags.contains(.extended))
            }
            print("  \(pad(name, 13)) ours \(pad(Timing.milliseconds(ours), 9, left: true)), PCRE2 \(pad(Timing.milliseconds(theirs), 9, left: true))  /\(source.count > 48 ? String(source.prefix(45)) + "…" : source)/")
        }
    }

    print("Patterns: adversarial patterns (compile; 1 MB match final / live)")
    for (source, value) in patternAdversaries {
        var program: PatternProgram?
        let compile = Timing.fastest { program = PatternProgram.uncached(source, flags: []) }
        guard let program else { print("  /\(source)/ does not compile"); continue }
        let bytes = Array(value(1 << 20).utf8)
        let scratch = Scratch()
        var matched = false
        let final = Timing.fastest { bytes.withUnsafeBufferPointer { matched = program.matches($0, scratch: scratch) } }
        let type = FieldTypeDefinition(name: "p", checks: [CheckRule(kind: .pattern(source: source, flags: []),
                                                                     options: RuleOptions(name: "pattern", location: here))],
                                       location: here)
        guard let compiled = FieldCompiler.compile(type, arguments: [:], today: today).compiled else { continue }
        let text = String(decoding: bytes, as: UTF8.self)
        var verdict = Verdict.valid
        let live = Timing.fastest { verdict = compiled.validate(text, stage: .live).verdict }
        print("  \(pad("/" + source + "/", 20)) \(program.isDFA ? "dfa" : "nfa") \(pad(String(program.automaton.transitions.count), 5, left: true)) states; compile \(Timing.milliseconds(compile)); 1 MB final \(Timing.milliseconds(final)) (\(matched ? "match" : "no match")), live \(Timing.milliseconds(live)) (\(verdict))")
    }
}

/// Patterns that make backtracking engines exponential, and a 1 MB value for each.
let patternAdversaries: [(String, @Sendable (Int) -> String)] = [
    ("(a|aa)+b", { String(repeating: "a", count: $0) }),
    ("(.*a){12}", { String(repeating: "ab", count: $0 / 2) + "a" }),
    ("(a|b)*a(a|b){15}", { n in String((0..<n).map { $0 % 3 == 0 ? "a" : "b" }) }),
    ("(a+)+$", { String(repeating: "a", count: $0) + "!" }),
    ("(\\w+\\s?)*$", { String(repeating: "ab ", count: $0 / 3) + "!" }),
]

private let here = SourceLocation(file: "bench", line: 1, column: 1)

private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? padding + text : text + padding
}
