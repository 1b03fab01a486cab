/// A transition on a range of scalars: every scalar from `lo` to `hi` (inclusive) leads to
/// state `target`.
package struct Edge: Hashable, Sendable {
    package var lo: UInt32
    package var hi: UInt32
    package var target: Int32

    package init(lo: UInt32, hi: UInt32, target: Int32) {
        self.lo = lo
        self.hi = hi
        self.target = target
    }
}

/// A deterministic automaton over scalar ranges: each state's edges are sorted and never
/// overlap; a scalar no edge covers leads to the dead state (which is not stored).
struct DFA {
    var edges: [[Edge]]
    var accepting: [Bool]
    /// The start state, or nil when the automaton accepts nothing.
    var start: Int32?

    var count: Int { edges.count }
}

extension DFA {
    /// The subset construction of `nfa`: each state is the set of the NFA's reading and
    /// accepting states alive after some prefix. Nil as soon as it would need more than
    /// `cap` states (the caller then keeps the NFA); states are numbered in the order they
    /// are found, following edges in order, so the result does not depend on hashing.
    ///
    /// A state's edges come from a sweep over the ranges its members read: at each boundary
    /// the set of members whose range covers the scalar changes, and the next state is the
    /// closure of their successors.
    init?(subsetOf nfa: ThompsonNFA, cap: Int) {
        var seen = [UInt32](repeating: 0, count: nfa.count)
        var mark: UInt32 = 0
        var stack: [Int32] = []
        func closure(_ states: [Int32]) -> [Int32] {
            mark += 1
            var result: [Int32] = []
            nfa.closure(of: states, into: &result, seen: &seen, mark: mark, stack: &stack)
            result.sort()
            return result
        }
        var sets: [[Int32]] = [closure([nfa.start])]
        var index: [HashedList<[Int32]>: Int32] = [HashedList(sets[0]): 0]
        var edges: [[Edge]] = []
        var accepting: [Bool] = []
        // Working lists, reused from state to state. An event is `at << 32 | member << 1 |
        // opens`: a range of member `member` opens or closes at scalar `at`.
        var members: [Int32] = [], events: [UInt64] = [], counts: [Int32] = [], successors: [Int32] = []
        // This state's successor lists seen so far and their states: few, searched in order.
        var targets: [(successors: [Int32], state: Int32)] = []
        var q = 0
        while q < sets.count {
            members.removeAll(keepingCapacity: true)
            for state in sets[q] where nfa.kinds[Int(state)] == .scalar { members.append(state) }
            accepting.append(sets[q].contains(nfa.match))
            events.removeAll(keepingCapacity: true)
            for (j, member) in members.enumerated() {
                for range in nfa.sets[Int(nfa.a[Int(member)])].ranges {
                    events.append(UInt64(range.lo) << 32 | UInt64(j) << 1 | 1)
                    events.append(UInt64(range.hi + 1) << 32 | UInt64(j) << 1)
                }
            }
            events.sort()
            counts.removeAll(keepingCapacity: true)
            counts.append(contentsOf: repeatElement(0, count: members.count))
            targets.removeAll(keepingCapacity: true)
            var stateEdges: [Edge] = []
            var k = 0
            while k < events.count {
                let position = UInt32(events[k] >> 32)
                while k < events.count && UInt32(events[k] >> 32) == position {
                    counts[Int(events[k] >> 1 & 0x7FFF_FFFF)] += events[k] & 1 == 1 ? 1 : -1
                    k += 1
                }
                guard k < events.count else { break }
                successors.removeAll(keepingCapacity: true)
                for (j, count) in counts.enumerated() where count > 0 {
                    let next = nfa.b[Int(members[j])]
                    if !successors.contains(next) { successors.append(next) }
                }
                guard !successors.isEmpty else { continue }
                let target: Int32
                if let known = targets.first(where: { $0.successors == successors }) {
                    target = known.state
                } else {
                    let set = closure(successors)
                    let key = HashedList(set)
                    if let existing = index[key] {
                        target = existing
                    } else {
                        guard sets.count < cap else { return nil }
                        target = Int32(sets.count)
                        index[key] = target
                        sets.append(set)
                    }
                    targets.append((successors, target))
                }
                let hi = UInt32(events[k] >> 32) - 1
                if let last = stateEdges.last, last.target == target, last.hi &+ 1 == position {
                    stateEdges[stateEdges.count - 1].hi = hi
                } else {
                    stateEdges.append(Edge(lo: position, hi: hi, target: target))
                }
            }
            edges.append(stateEdges)
            q += 1
        }
        self.init(edges: edges, accepting: accepting, start: 0)
        // Every reading state of a Thompson NFA leads on to its accepting state unless some
        // set on the way is empty (`[^\s\S]`): only then can a state of the DFA be dead.
        if nfa.sets.contains(where: \.isEmpty) { trim() }
    }

    /// Removes the states from which no accepting state can be reached, and the edges into
    /// them: after this a missing edge is the only way to the dead state, which is what the
    /// live stage and the exported automaton rely on.
    mutating func trim() {
        var incoming = [[Int32]](repeating: [], count: count)
        for (source, list) in edges.enumerated() {
            for edge in list { incoming[Int(edge.target)].append(Int32(source)) }
        }
        var alive = accepting
        var work = (0..<count).filter { accepting[$0] }
        while let state = work.popLast() {
            for source in incoming[state] where !alive[Int(source)] {
                alive[Int(source)] = true
                work.append(Int(source))
            }
        }
        guard let start, alive[Int(start)] else {
            self = DFA(edges: [], accepting: [], start: nil)
            return
        }
        var renumber = [Int32](repeating: -1, count: count)
        var kept = 0
        for state in 0..<count where alive[state] {
            renumber[state] = Int32(kept)
            kept += 1
        }
        var newEdges: [[Edge]] = []
        var newAccepting: [Bool] = []
        for state in 0..<count where alive[state] {
            newEdges.append(edges[state].compactMap { edge in
                let target = renumber[Int(edge.target)]
                return target < 0 ? nil : Edge(lo: edge.lo, hi: edge.hi, target: target)
            })
            newAccepting.append(accepting[state])
        }
        self = DFA(edges: newEdges, accepting: newAccepting, start: renumber[Int(start)])
    }
}
