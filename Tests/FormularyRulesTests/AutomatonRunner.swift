@testable import FormularyRules

/// A plain reading of a `PatternAutomaton` as docs/export.md describes it — a set of states
/// moved scalar by scalar along every range that holds the scalar — to check the engine's
/// fast matcher against, and to find witnesses: strings that prove a state live or not
/// universal.
struct AutomatonRunner {
    let automaton: PatternAutomaton

    /// The set of states after `text`.
    func states(after text: String) -> Set<Int> {
        var current = Set(automaton.start)
        for scalar in text.unicodeScalars {
            var next = Set<Int>()
            for state in current {
                for edge in automaton.transitions[state] where edge.lo <= scalar.value && scalar.value <= edge.hi {
                    next.insert(Int(edge.target))
                }
            }
            current = next
        }
        return current
    }

    func accepts(_ states: Set<Int>) -> Bool { states.contains { automaton.accepting.contains($0) } }

    /// A shortest continuation from `states` to an accepting state (each step the first scalar
    /// of an edge), or nil when none exists.
    func witnessOfAcceptance(from states: Set<Int>) -> String? {
        search(from: Array(states).sorted()) { state, path in
            automaton.accepting.contains(state) ? path : nil
        }
    }

    /// For a DFA: a continuation from `state` that is not accepted — one leading to a state
    /// that does not accept, or to a scalar the state has no edge for — or nil when every
    /// continuation is accepted.
    func witnessOfRejection(from state: Int) -> String? {
        search(from: [state]) { current, path in
            if !automaton.accepting.contains(current) { return path }
            return Self.uncovered(automaton.transitions[current]).map { path + String($0) }
        }
    }

    /// Breadth-first from `starts` along each edge's first scalar: the first answer `found`
    /// gives for a state, given the string that reaches it.
    private func search(from starts: [Int], _ found: (Int, String) -> String?) -> String? {
        var previous: [Int: (Int, UInt32)] = [:]
        var queue = starts
        var seen = Set(starts)
        var k = 0
        while k < queue.count {
            let state = queue[k]
            var scalars: [Unicode.Scalar] = []
            var at = state
            while let (from, scalar) = previous[at] { scalars.append(Unicode.Scalar(scalar)!); at = from }
            if let answer = found(state, String(String.UnicodeScalarView(scalars.reversed()))) { return answer }
            for edge in automaton.transitions[state] where !seen.contains(Int(edge.target)) {
                seen.insert(Int(edge.target))
                previous[Int(edge.target)] = (state, edge.lo)
                queue.append(Int(edge.target))
            }
            k += 1
        }
        return nil
    }

    /// A scalar no edge covers, or nil.
    static func uncovered(_ edges: [Edge]) -> Unicode.Scalar? {
        var next: UInt32 = 0
        for edge in edges.sorted(by: { $0.lo < $1.lo }) {
            if next >= 0xD800 && next <= 0xDFFF { next = 0xE000 }
            if edge.lo > next { return Unicode.Scalar(next) }
            next = max(next, edge.hi + 1)
        }
        if next >= 0xD800 && next <= 0xDFFF { next = 0xE000 }
        return next <= 0x10FFFF ? Unicode.Scalar(next) : nil
    }
}
