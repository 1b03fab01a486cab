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
        var previous: [Int: (Int, UInt32)] = [:]
        var queue = Array(states).sorted()
        var seen = Set(queue)
        var k = 0
        while k < queue.count {
            let state = queue[k]
            if automaton.accepting.contains(state) {
                var scalars: [Unicode.Scalar] = []
                var at = state
                while let (from, scalar) = previous[at] { scalars.append(Unicode.Scalar(scalar)!); at = from }
                return String(String.UnicodeScalarView(scalars.reversed()))
            }
            for edge in automaton.transitions[state] where !seen.contains(Int(edge.target)) {
                seen.insert(Int(edge.target))
                previous[Int(edge.target)] = (state, edge.lo)
                queue.append(Int(edge.target))
            }
            k += 1
        }
        return nil
    }

    /// For a DFA: a continuation from `state` that is not accepted — one leading to a state
    /// that does not accept, or to a scalar the state has no edge for — or nil when every
    /// continuation is accepted.
    func witnessOfRejection(from state: Int) -> String? {
        var previous: [Int: (Int, UInt32)] = [:]
        var queue = [state]
        var seen: Set<Int> = [state]
        var k = 0
        func path(to end: Int) -> [Unicode.Scalar] {
            var scalars: [Unicode.Scalar] = []
            var at = end
            while let (from, scalar) = previous[at] { scalars.append(Unicode.Scalar(scalar)!); at = from }
            return scalars.reversed()
        }
        while k < queue.count {
            let current = queue[k]
            if !automaton.accepting.contains(current) { return String(String.UnicodeScalarView(path(to: current))) }
            if let gap = Self.uncovered(automaton.transitions[current]) {
                return String(String.UnicodeScalarView(path(to: current) + [gap]))
            }
            for edge in automaton.transitions[current] where !seen.contains(Int(edge.target)) {
                seen.insert(Int(edge.target))
                previous[Int(edge.target)] = (current, edge.lo)
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
