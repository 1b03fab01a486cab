/// Raised when a comparison would need more automaton states than its budget allows: the
/// answer is then "too complex to decide", never a hang.
struct TooComplex: Error {}

/// The states a comparison may make, all automata together; shared by the parts of one
/// comparison (not thread-safe: a comparison runs on one thread).
final class ComparisonBudget {
    let cap: Int
    private var used = 0

    init(cap: Int) { self.cap = cap }

    /// Takes `n` states from the budget.
    func spend(_ n: Int = 1) throws(TooComplex) {
        used += n
        if used > cap { throw TooComplex() }
    }
}

/// An automaton over scalar ranges, as a check's language is first built: deterministic
/// (one start, edges of a state never overlapping) or not (a pattern kept as an NFA).
/// Every state can reach an accepting one unless the builder says otherwise; a scalar no
/// edge covers leads nowhere.
struct RangeAutomaton {
    var start: [Int32]
    var edges: [[Edge]]
    var accepting: [Bool]
    var deterministic: Bool

    /// A compiled pattern's automaton (a DFA, or the NFA of a pattern above the DFA cap).
    init(_ automaton: PatternAutomaton) {
        start = automaton.start.map(Int32.init)
        edges = automaton.transitions
        var accepting = [Bool](repeating: false, count: automaton.stateCount)
        for s in automaton.accepting { accepting[s] = true }
        self.accepting = accepting
        deterministic = automaton.kind == .dfa
    }

    init(start: [Int32], edges: [[Edge]], accepting: [Bool], deterministic: Bool = true) {
        self.start = start
        self.edges = edges
        self.accepting = accepting
        self.deterministic = deterministic
    }

    /// The automaton that accepts nothing.
    static let nothing = RangeAutomaton(start: [], edges: [], accepting: [])

    /// Builds a deterministic automaton by exploring an abstract machine breadth-first from
    /// `start`: `next` gives a state's moves as (lo, hi, successor), not overlapping.
    /// Throws when it needs more than `cap` states.
    static func explore<State: Hashable>(from start: State, cap: Int, accepting: (State) -> Bool,
                                         next: (State) -> [(UInt32, UInt32, State)]) throws(TooComplex) -> RangeAutomaton {
        var states = [start]
        var index: [State: Int32] = [start: 0]
        var edges: [[Edge]] = []
        var q = 0
        while q < states.count {
            var list: [Edge] = []
            for (lo, hi, successor) in next(states[q]).sorted(by: { $0.0 < $1.0 }) {
                let target: Int32
                if let known = index[successor] { target = known } else {
                    guard states.count < cap else { throw TooComplex() }
                    target = Int32(states.count)
                    index[successor] = target
                    states.append(successor)
                }
                if let last = list.last, last.target == target, last.hi &+ 1 == lo {
                    list[list.count - 1].hi = hi
                } else {
                    list.append(Edge(lo: lo, hi: hi, target: target))
                }
            }
            edges.append(list)
            q += 1
        }
        return RangeAutomaton(start: [0], edges: edges, accepting: states.map(accepting))
    }
}

/// A check's automaton over the classes of a comparison (``ScalarClasses``): a table per
/// state for a DFA, or for an NFA a subset construction made as the comparison walks,
/// within the comparison's budget.
///
/// States are numbered from 0; -1 is the dead state (no continuation accepts).
final class ClassAutomaton {
    let classCount: Int
    private(set) var start: Int32
    private var table: [Int32]
    private(set) var accepting: [Bool]
    /// Per state, whether every continuation is accepted (known for DFAs; false otherwise).
    private(set) var universal: [Bool]
    private let nfa: RangeAutomaton?
    /// Whether the automaton was a DFA (its table and universal states made in advance).
    var isDeterministic: Bool { nfa == nil }
    private let representatives: [UInt32]
    private var subsets: [[Int32]] = []
    private var subsetIndex: [Subset: Int32] = [:]
    /// Scratch for ``next(_:_:)`` on an NFA: targets found, and per NFA state the last call
    /// that found it (so that no set is built per step).
    private var targets: [Int32] = []
    private var seen: [UInt32] = []
    private var call: UInt32 = 0

    /// A sorted set of NFA states, hashed in one pass (as ``ClassDFA``'s keys are).
    private struct Subset: Hashable {
        var states: [Int32]
        func hash(into hasher: inout Hasher) {
            var h: UInt64 = 0
            for v in states { h = (h ^ UInt64(UInt32(bitPattern: v))) &* 0x100_0000_01B3 &+ 0x2545_F491 }
            hasher.combine(h)
        }
    }
    private let budget: ComparisonBudget

    private static let unknown: Int32 = -2

    /// `automaton` over `classes`, which must respect its edges (the builder was given them).
    init(_ automaton: RangeAutomaton, classes: ScalarClasses, budget: ComparisonBudget) throws(TooComplex) {
        classCount = classes.count
        representatives = classes.representatives
        self.budget = budget
        if automaton.deterministic {
            nfa = nil
            let n = automaton.edges.count
            try budget.spend(n)
            start = automaton.start.first ?? -1
            accepting = automaton.accepting
            table = [Int32](repeating: -1, count: n * classCount)
            for (state, list) in automaton.edges.enumerated() where !list.isEmpty {
                for c in 0..<classCount {
                    table[state * classCount + c] = Self.target(of: representatives[c], in: list)
                }
            }
            universal = []
            universal = Self.universalStates(table: table, accepting: accepting, classCount: classCount)
        } else {
            nfa = automaton
            table = []
            accepting = []
            universal = []
            start = -1
            let first = Array(Set(automaton.start)).sorted()
            start = first.isEmpty ? -1 : try intern(first)
        }
    }

    /// The state after `state` reads a scalar of class `c` (-1: dead).
    func next(_ state: Int32, _ c: Int32) throws(TooComplex) -> Int32 {
        let slot = Int(state) * classCount + Int(c)
        let known = table[slot]
        if known != Self.unknown { return known }
        guard let nfa else { return -1 }
        if seen.count < nfa.edges.count { seen = [UInt32](repeating: 0, count: nfa.edges.count) }
        call &+= 1
        targets.removeAll(keepingCapacity: true)
        let s = representatives[Int(c)]
        for member in subsets[Int(state)] {
            for e in nfa.edges[Int(member)] where e.lo <= s && s <= e.hi && seen[Int(e.target)] != call {
                seen[Int(e.target)] = call
                targets.append(e.target)
            }
        }
        targets.sort()
        let result = targets.isEmpty ? -1 : try intern(targets)
        table[slot] = result
        return result
    }

    private func intern(_ subset: [Int32]) throws(TooComplex) -> Int32 {
        if let known = subsetIndex[Subset(states: subset)] { return known }
        try budget.spend()
        let id = Int32(subsets.count)
        subsets.append(subset)
        subsetIndex[Subset(states: subset)] = id
        accepting.append(subset.contains { nfa!.accepting[Int($0)] })
        universal.append(false)
        table += [Int32](repeating: Self.unknown, count: classCount)
        return id
    }

    private static func target(of scalar: UInt32, in edges: [Edge]) -> Int32 {
        var low = 0, high = edges.count
        while low < high {
            let middle = (low + high) / 2
            if edges[middle].hi < scalar { low = middle + 1 } else { high = middle }
        }
        return low < edges.count && edges[low].lo <= scalar ? edges[low].target : -1
    }

    /// The accepting states from which every class leads to such a state: the greatest
    /// such set, found by striking out states until none changes.
    private static func universalStates(table: [Int32], accepting: [Bool], classCount: Int) -> [Bool] {
        var universal = accepting
        var changed = true
        while changed {
            changed = false
            for s in 0..<accepting.count where universal[s] {
                for c in 0..<classCount {
                    let t = table[s * classCount + c]
                    if t < 0 || !universal[Int(t)] {
                        universal[s] = false
                        changed = true
                        break
                    }
                }
            }
        }
        return universal
    }
}

extension RangeAutomaton {
    /// Without the states that cannot reach an accepting one (deterministic automata only),
    /// so that reaching the dead state is the only way to fail for good.
    func trimmed() -> RangeAutomaton {
        guard deterministic, let first = start.first else { return self }
        let n = edges.count
        var incoming = [[Int]](repeating: [], count: n)
        for (s, list) in edges.enumerated() { for e in list { incoming[Int(e.target)].append(s) } }
        var alive = accepting
        var work = (0..<n).filter { accepting[$0] }
        while let s = work.popLast() {
            for p in incoming[s] where !alive[p] {
                alive[p] = true
                work.append(p)
            }
        }
        guard alive[Int(first)] else { return .nothing }
        var renumber = [Int32](repeating: -1, count: n)
        var kept: Int32 = 0
        for s in 0..<n where alive[s] {
            renumber[s] = kept
            kept += 1
        }
        var newEdges: [[Edge]] = []
        var newAccepting: [Bool] = []
        for s in 0..<n where alive[s] {
            newEdges.append(edges[s].compactMap { e in
                renumber[Int(e.target)] < 0 ? nil : Edge(lo: e.lo, hi: e.hi, target: renumber[Int(e.target)])
            })
            newAccepting.append(accepting[s])
        }
        return RangeAutomaton(start: [renumber[Int(first)]], edges: newEdges, accepting: newAccepting)
    }
}
