import PCRE2Oracle
import Testing
@testable import FormularyRules

/// The live stage is exact, proved against brute force on small alphabets. For random
/// patterns over `a`, `b`, `c` (plus `x` for any other scalar) and every prefix up to four
/// scalars, with PCRE2 as the independent matcher:
/// - `pattern`: the engine says the prefix is dead exactly when no continuation matches —
///   none of the continuations up to `bound` scalars does, and when it says live, the
///   shortest continuation its automaton offers really makes a match;
/// - `pattern not` (DFA): the engine says every continuation matches exactly when it does —
///   all continuations up to `bound` do, and when it says not, its automaton's witness
///   really does not match.
/// Both as a DFA and as an NFA (the same patterns compiled with a DFA cap of one state).
@Suite struct PatternLiveOracleTests {
    static let alphabet: [Unicode.Scalar] = ["a", "b", "c", "x"]
    static let bound = 5

    /// A random pattern over `a`, `b`, `c`, read alike by PCRE2 and the dialect.
    static func randomPattern(_ rng: inout SplitMix64, depth: Int) -> String {
        switch rng.int(0...(depth > 0 ? 8 : 2)) {
        case 0: return String(rng.pick(["a", "b", "c"]))
        case 1: return rng.pick(["[ab]", "[^a]", ".", "[a-c]", "[^abc]", "[^\\s\\S]"])
        case 2: return rng.pick(["a", "b"]) + rng.pick(["a", "b", "c"])
        case 3, 4: return randomPattern(&rng, depth: depth - 1) + randomPattern(&rng, depth: depth - 1)
        case 5: return "(?:" + randomPattern(&rng, depth: depth - 1) + "|" + randomPattern(&rng, depth: depth - 1) + ")"
        default:
            let quantifier = rng.pick(["*", "+", "?", "{2}", "{1,3}", "{2,}", "{0,2}"])
            return "(?:" + randomPattern(&rng, depth: depth - 1) + ")" + quantifier
        }
    }

    /// Every string of up to `length` scalars of the alphabet.
    static func strings(upTo length: Int) -> [String] {
        var all = [""]
        var layer = [""]
        for _ in 0..<length {
            layer = layer.flatMap { prefix in alphabet.map { prefix + String($0) } }
            all += layer
        }
        return all
    }

    static let prefixes = strings(upTo: 4)
    static let continuations = strings(upTo: bound)

    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16])
    func liveStageIsExact(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<25 {
            let source = Self.randomPattern(&rng, depth: 3)
            let oracle = try PCRE2Pattern(source)
            let node = try PatternParser.parse(source, flags: [])
            for cap in [PatternAutomaton.dfaCap, 1] {
                let automaton = try PatternAutomaton(node, dfaCap: cap)
                let program = PatternProgram(automaton)
                let runner = AutomatonRunner(automaton: automaton)
                // A dead (or universal) prefix's extensions are dead (universal) too, and the
                // brute-force search of the prefix already covered theirs: search once.
                var searched: Set<String> = []
                for prefix in Self.prefixes {
                    let end = Self.end(program, prefix)
                    let parentSearched = !prefix.isEmpty && searched.contains(String(prefix.unicodeScalars.dropLast()))
                    let states = runner.states(after: prefix)
                    let label = "/\(source)/ (\(automaton.kind)) after \(prefix.debugDescription)"
                    #expect(end.isDead == states.isEmpty, "\(label): the fast matcher and the reading disagree")
                    #expect(end.isAccepting == runner.accepts(states), "\(label)")
                    #expect(end.isAccepting == oracle.matches(prefix), "\(label)")
                    if end.isDead {
                        if parentSearched { searched.insert(prefix); continue }
                        let completion = Self.continuations.first { oracle.matches(prefix + $0) }
                        #expect(completion == nil, "\(label) is dead, but \((prefix + (completion ?? "")).debugDescription) matches")
                        searched.insert(prefix)
                    } else {
                        let witness = runner.witnessOfAcceptance(from: states)
                        #expect(witness.map { oracle.matches(prefix + $0) } == true,
                                "\(label) is live, but its witness \(witness.debugDescription) does not match")
                    }
                    guard automaton.kind == .dfa else {
                        #expect(!end.isUniversal, "\(label): an NFA never claims every continuation")
                        continue
                    }
                    if end.isUniversal {
                        if parentSearched { searched.insert(prefix); continue }
                        let miss = Self.continuations.first { !oracle.matches(prefix + $0) }
                        #expect(miss == nil, "\(label) is universal, but \((prefix + (miss ?? "")).debugDescription) does not match")
                        searched.insert(prefix)
                    } else if let state = states.first {
                        let witness = runner.witnessOfRejection(from: state)
                        #expect(witness.map { !oracle.matches(prefix + $0) } == true,
                                "\(label) is not universal, but its witness \(witness.debugDescription) matches")
                    }
                }
            }
        }
    }

    /// Through whole types: `pattern` fails live exactly in the dead state, `pattern not` exactly
    /// in a universal one, and a mask's `when` selects while its automaton is alive.
    @Test func checksUseTheExactLiveStage() throws {
        let type = try compileType(check(.pattern(source: "ab{2,3}c", flags: [])),
                                   check(.pattern(source: "[\\s\\S]*q[\\s\\S]*", flags: [], negated: true), as: "no-q"))
        #expect(type.failed("abb", .live).isEmpty)
        #expect(type.failed("abbbb", .live) == ["pattern"])
        #expect(type.failed("abq", .live) == ["pattern", "no-q"])
        #expect(type.failed("abbc", .final).isEmpty)
    }

    static func end(_ program: PatternProgram, _ value: String) -> PatternProgram.End {
        var value = value
        return value.withUTF8 { bytes in Scratch.withCurrent { program.end(bytes, scratch: $0) } }
    }
}
