/// A pattern compiled, in the shape `formulary export` gives client runtimes
/// (docs/export.md, "Patterns and their automata"): states numbered from 0, transitions on
/// scalar ranges, every state able to reach an accepting one.
///
/// `dfa` when the subset construction stays within `dfaCap` states (then minimized); else
/// `nfa`, without empty moves, whose set of states a matcher follows. Either way matching is
/// linear in the value's length.
package struct PatternAutomaton: Hashable, Sendable {
    package enum Kind: String, Sendable { case dfa, nfa }

    package var kind: Kind
    /// The start states: one for a `dfa`, none when the pattern matches nothing.
    package var start: [Int]
    /// Sorted.
    package var accepting: [Int]
    /// `dfa` only: the states from which every continuation is accepted, sorted.
    package var universal: [Int]
    /// Per state, sorted by `lo`; in a `dfa` they never overlap.
    package var transitions: [[Edge]]

    /// The most states a subset construction may make before the pattern is kept as an `nfa`.
    package static let dfaCap = 10_000
    /// The most transitions an `nfa` may have (empty moves removed, the NFA can grow by the
    /// square of its states); above, the pattern is refused as too complex.
    static let nfaTransitionLimit = 4_000_000

    /// Compiles a parsed pattern. Throws only `tooManyTransitions`, for an NFA too big to keep.
    init(_ node: PatternNode, dfaCap: Int = PatternAutomaton.dfaCap) throws(PatternError) {
        let nfa = ThompsonNFA(node)
        if var dfa = DFA(subsetOf: nfa, cap: dfaCap) {
            dfa.minimize()
            dfa.renumberBreadthFirst()
            self.init(dfa)
        } else {
            guard let automaton = Self.epsilonFree(nfa) else {
                throw PatternError(.tooManyTransitions(limit: Self.nfaTransitionLimit), at: 0..<1)
            }
            self = automaton
        }
    }

    init(kind: Kind, start: [Int], accepting: [Int], universal: [Int], transitions: [[Edge]]) {
        self.kind = kind
        self.start = start
        self.accepting = accepting
        self.universal = universal
        self.transitions = transitions
    }

    init(_ dfa: DFA) {
        let accepting = (0..<dfa.count).filter { dfa.accepting[$0] }
        self.init(kind: .dfa, start: dfa.start.map { [Int($0)] } ?? [], accepting: accepting,
                  universal: Self.universalStates(dfa), transitions: dfa.edges)
    }

    var stateCount: Int { transitions.count }

    /// The accepting states whose transitions cover every scalar and lead only to such states:
    /// the greatest set with that property, found by striking out states until none changes.
    private static func universalStates(_ dfa: DFA) -> [Int] {
        var universal = dfa.accepting
        var changed = true
        while changed {
            changed = false
            for state in 0..<dfa.count where universal[state] {
                if !coversEveryScalar(dfa.edges[state]) || dfa.edges[state].contains(where: { !universal[Int($0.target)] }) {
                    universal[state] = false
                    changed = true
                }
            }
        }
        return (0..<dfa.count).filter { universal[$0] }
    }

    /// Whether sorted, non-overlapping edges cover U+0000…U+D7FF and U+E000…U+10FFFF.
    private static func coversEveryScalar(_ edges: [Edge]) -> Bool {
        var next: UInt32 = 0
        for edge in edges {
            if next == ScalarSet.surrogates.lo { next = ScalarSet.surrogates.hi + 1 }
            guard edge.lo <= next else { return false }
            next = max(next, edge.hi &+ 1)
        }
        if next == ScalarSet.surrogates.lo { return false }
        return next > ScalarSet.maxScalar
    }

    /// The NFA without empty moves: a state per reading state of `nfa` (about to read its
    /// set) and one accepting state; reading from a state leads to every reading or accepting
    /// state the empty moves reach from its successor. Trimmed and numbered breadth-first.
    /// Nil when it would exceed `nfaTransitionLimit` transitions.
    private static func epsilonFree(_ nfa: ThompsonNFA) -> PatternAutomaton? {
        var seen = [UInt32](repeating: 0, count: nfa.count)
        var mark: UInt32 = 0
        var stack: [Int32] = []
        func closure(_ state: Int32) -> [Int32] {
            mark += 1
            var result: [Int32] = []
            nfa.closure(of: [state], into: &result, seen: &seen, mark: mark, stack: &stack)
            return result
        }
        // Reachable states in breadth-first order, with their transitions on Thompson ids.
        let starts = closure(nfa.start)
        var order = [Int32](repeating: -1, count: nfa.count)
        var queue: [Int32] = []
        for state in starts where order[Int(state)] < 0 {
            order[Int(state)] = Int32(queue.count)
            queue.append(state)
        }
        var edges: [[Edge]] = []
        var total = 0
        var q = 0
        while q < queue.count {
            let state = Int(queue[q])
            var list: [Edge] = []
            if nfa.kinds[state] == .scalar {
                let targets = closure(nfa.b[state])
                for target in targets where order[Int(target)] < 0 {
                    order[Int(target)] = Int32(queue.count)
                    queue.append(target)
                }
                for range in nfa.sets[Int(nfa.a[state])].ranges {
                    for target in targets { list.append(Edge(lo: range.lo, hi: range.hi, target: order[Int(target)])) }
                }
                list.sort { ($0.lo, $0.target) < ($1.lo, $1.target) }
                total += list.count
                if total > nfaTransitionLimit { return nil }
            }
            edges.append(list)
            q += 1
        }
        let accepting = queue.firstIndex(of: nfa.match)
        return trimmed(PatternAutomaton(kind: .nfa, start: starts.map { Int(order[Int($0)]) },
                                        accepting: accepting.map { [$0] } ?? [], universal: [], transitions: edges))
    }

    /// Without the states that cannot reach an accepting state (and the transitions into
    /// them), renumbered breadth-first from the start states.
    private static func trimmed(_ automaton: PatternAutomaton) -> PatternAutomaton {
        let n = automaton.stateCount
        var incoming = [[Int]](repeating: [], count: n)
        for (source, list) in automaton.transitions.enumerated() {
            for edge in list { incoming[Int(edge.target)].append(source) }
        }
        var alive = [Bool](repeating: false, count: n)
        var work = automaton.accepting
        for state in work { alive[state] = true }
        while let state = work.popLast() {
            for source in incoming[state] where !alive[source] {
                alive[source] = true
                work.append(source)
            }
        }
        var order = [Int](repeating: -1, count: n)
        var queue: [Int] = []
        for state in automaton.start where alive[state] && order[state] < 0 {
            order[state] = queue.count
            queue.append(state)
        }
        let start = queue
        var q = 0
        while q < queue.count {
            for edge in automaton.transitions[queue[q]] where alive[Int(edge.target)] && order[Int(edge.target)] < 0 {
                order[Int(edge.target)] = queue.count
                queue.append(Int(edge.target))
            }
            q += 1
        }
        let transitions = queue.map { state in
            automaton.transitions[state].compactMap { edge -> Edge? in
                alive[Int(edge.target)] ? Edge(lo: edge.lo, hi: edge.hi, target: Int32(order[Int(edge.target)])) : nil
            }
        }
        return PatternAutomaton(kind: automaton.kind, start: start.map { order[$0] },
                                accepting: automaton.accepting.filter { order[$0] >= 0 }.map { order[$0] }.sorted(),
                                universal: [], transitions: transitions)
    }
}

extension PatternAutomaton {
    /// The automaton of `source` with `flags`, compiled once per process (the engine's own), or
    /// nil when the pattern does not compile: what `formulary export` writes for each pattern.
    package static func compiled(_ source: String, flags: RegexFlags) -> PatternAutomaton? {
        try? PatternCache.shared.program(source, flags: flags).automaton
    }
}
