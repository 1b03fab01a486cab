import Testing
@testable import FormularyRules

/// The compiled automata: minimal, trimmed, deterministic in their numbering, universal
/// states found, an NFA above the cap, and the shape docs/export.md promises.
@Suite struct PatternAutomatonTests {
    private func automaton(_ source: String, _ flags: RegexFlags = [], cap: Int = PatternAutomaton.dfaCap) throws
        -> PatternAutomaton {
        try PatternAutomaton(try PatternParser.parse(source, flags: flags), dfaCap: cap)
    }

    @Test func minimizedDFAs() throws {
        // The classic: the minimal DFA of (a|b)*abb has 4 states.
        #expect(try automaton("(?:a|b)*abb").stateCount == 4)
        #expect(try automaton("[0-9]{3}").stateCount == 4)
        #expect(try automaton("[0-9]{3}|[0-9]{3}").stateCount == 4)
        #expect(try automaton("(?:[a-z]|[a-z])+").stateCount == 2)
        // "The sixth symbol from the end is an a" needs 2^6 states, and they are all distinct.
        #expect(try automaton("(?:a|b)*a(?:a|b){5}").stateCount == 64)
        // A DFA until the subset construction passes the cap.
        #expect(try automaton("(?:a|b)*a(?:a|b){12}").kind == .dfa)
        #expect(try automaton("(?:a|b)*a(?:a|b){15}").kind == .nfa)
    }

    @Test func universalStates() throws {
        let anything = try automaton("[\\s\\S]*")
        #expect(anything.stateCount == 1 && anything.universal == [0] && anything.accepting == [0])
        #expect(try automaton("a*").universal.isEmpty)
        #expect(try automaton(".*").universal.isEmpty, "'.' is not a line feed")
        let afterPrefix = try automaton("ab[\\s\\S]*")
        #expect(afterPrefix.universal == [2])
        // Universal states need every scalar, surrogates excepted.
        #expect(try automaton("[\\x{0}-\\x{10FFFF}]*").universal == [0])
        #expect(try automaton("[\\x{0}-\\x{10FFFE}]*").universal.isEmpty)
        #expect(try automaton("(?:a|b)*a(?:a|b){15}").universal.isEmpty, "an NFA states none")
    }

    @Test func anEmptyLanguageHasNoStates() throws {
        for source in ["[^\\s\\S]", "a[^\\s\\S]b", "[^\\s\\S]*[^\\s\\S]"] {
            let empty = try automaton(source)
            #expect(empty.start.isEmpty && empty.transitions.isEmpty && empty.accepting.isEmpty, "\(source)")
        }
        // A branch that can never finish is cut away; the rest stays.
        let trimmed = try automaton("ab|a[^\\s\\S]")
        #expect(trimmed.stateCount == 3)
        let nfa = try automaton("a[^\\s\\S]|b", cap: 1)
        #expect(nfa.kind == .nfa && nfa.stateCount == 2)
    }

    /// The shape of every built-in pattern's automaton, and of the NFA forms of them all.
    @Test func theExportedShapeHolds() throws {
        for (type, source, flags) in PatternDifferentialTests.builtinPatterns {
            for cap in [PatternAutomaton.dfaCap, 1] {
                let a = try automaton(source, flags, cap: cap)
                let label = "\(type) /\(source)/ \(a.kind)"
                // A cap of one state leaves only one-state DFAs (such as phrase's) DFAs.
                #expect(a.kind == (cap == 1 && a.stateCount > 1 ? .nfa : .dfa), "\(label)")
                #expect(a.start == (a.kind == .dfa ? [0] : Array(0..<a.start.count)), "\(label): numbered from the start states")
                #expect(a.accepting == a.accepting.sorted() && a.universal == a.universal.sorted(), "\(label)")
                for (state, edges) in a.transitions.enumerated() {
                    #expect(edges == edges.sorted { ($0.lo, $0.target) < ($1.lo, $1.target) }, "\(label) state \(state)")
                    for edge in edges {
                        #expect(edge.lo <= edge.hi && edge.hi <= 0x10FFFF, "\(label)")
                        #expect(edge.hi < 0xD800 || edge.lo > 0xDFFF, "\(label): no surrogate")
                        #expect(Int(edge.target) < a.stateCount, "\(label)")
                    }
                    if a.kind == .dfa {
                        for (first, second) in zip(edges, edges.dropFirst()) { #expect(first.hi < second.lo, "\(label)") }
                    }
                }
                #expect(Self.everyStateReachesAcceptance(a), "\(label)")
                #expect(Self.everyStateIsReachable(a), "\(label)")
                // Compiling again gives the same automaton, numbers and all.
                #expect(try automaton(source, flags, cap: cap) == a, "\(label)")
            }
        }
    }

    /// The engine's matcher and a plain reading of the automaton agree, for both kinds, on
    /// the built-ins' example values and their prefixes.
    @Test func theMatcherRunsTheAutomaton() throws {
        for (type, source, flags) in PatternDifferentialTests.builtinPatterns {
            for cap in [PatternAutomaton.dfaCap, 1] {
                let a = try automaton(source, flags, cap: cap)
                let program = PatternProgram(a)
                let runner = AutomatonRunner(automaton: a)
                for example in builtinTypes[type]!.definition.examples {
                    let scalars = Array(example.value.unicodeScalars)
                    for n in 0...scalars.count {
                        let value = String(String.UnicodeScalarView(scalars[..<n]))
                        let states = runner.states(after: value)
                        let end = PatternLiveOracleTests.end(program, value)
                        #expect(end.isDead == states.isEmpty && end.isAccepting == runner.accepts(states),
                                "\(type) /\(source)/ \(a.kind) on \(value.debugDescription)")
                    }
                }
            }
        }
    }

    static func everyStateReachesAcceptance(_ a: PatternAutomaton) -> Bool {
        var alive = Set(a.accepting)
        var changed = true
        while changed {
            changed = false
            for (state, edges) in a.transitions.enumerated() where !alive.contains(state) {
                if edges.contains(where: { alive.contains(Int($0.target)) }) { alive.insert(state); changed = true }
            }
        }
        return alive.count == a.stateCount
    }

    static func everyStateIsReachable(_ a: PatternAutomaton) -> Bool {
        var seen = Set(a.start)
        var work = a.start
        while let state = work.popLast() {
            for edge in a.transitions[state] where seen.insert(Int(edge.target)).inserted { work.append(Int(edge.target)) }
        }
        return seen.count == a.stateCount
    }
}

/// The DFA's fast path — eight ASCII bytes per step, accelerated rows skipping words none of
/// whose bytes leaves them — against the plain reading, on long values with line feeds and
/// non-ASCII scalars at every offset within a word.
@Suite struct PatternFastPathTests {
    @Test func eightByteStepsAndSkipsAgreeWithThePlainReading() throws {
        var rng = SplitMix64(seed: 0x8B)
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", "x", "\n", "é", "中", "🙂"]
        var sources = ["[\\s\\S]*", ".*", "a.*b", ".*\\n.*", "[^ab]*a", "(?:[ab]{8})*", "[a-c]+é?.*", "x[^\\n]*\\nx"]
        for _ in 0..<40 { sources.append(PatternLiveOracleTests.randomPattern(&rng, depth: 3)) }
        for source in sources {
            let automaton = try PatternAutomaton(try PatternParser.parse(source, flags: []))
            let program = PatternProgram(automaton)
            let runner = AutomatonRunner(automaton: automaton)
            for _ in 0..<60 {
                var value = String(repeating: rng.pick(["a", "b", "x", "ab"]), count: rng.int(0...20))
                for _ in 0..<rng.int(0...3) {
                    var scalars = Array(value.unicodeScalars)
                    scalars.insert(rng.pick(alphabet), at: rng.int(0...scalars.count))
                    value = String(String.UnicodeScalarView(scalars))
                }
                let states = runner.states(after: value)
                let end = PatternLiveOracleTests.end(program, value)
                #expect(end.isDead == states.isEmpty && end.isAccepting == runner.accepts(states),
                        "/\(source)/ on \(value.debugDescription)")
            }
        }
    }
}
