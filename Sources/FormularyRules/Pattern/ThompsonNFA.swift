/// Thompson's construction: a pattern as a nondeterministic automaton whose states either
/// read one scalar of a set, branch without reading (`split`) or accept (`match`).
///
/// Counted repetitions are copied out (`a{2,4}` is `aa(a(a)?)?`, the optional copies nested so
/// that the states alive at once stay few); the parser has bounded the copies
/// (`PatternParser.maxStates`). Built backwards, each node compiled in front of what follows
/// it, so no state is ever patched.
struct ThompsonNFA {
    enum Kind: UInt8 { case scalar, split, match }

    /// Per state: its kind; for `scalar`, `a` is the set and `b` the next state; for `split`,
    /// `a` and `b` are the two next states.
    private(set) var kinds: [Kind] = []
    private(set) var a: [Int32] = []
    private(set) var b: [Int32] = []
    /// The sets the scalar states read (a repeated set's copies share their storage).
    private(set) var sets: [ScalarSet] = []
    private(set) var start: Int32 = 0
    private(set) var match: Int32 = 0

    init(_ node: PatternNode) {
        match = add(.match, 0, 0)
        start = compile(node, then: match)
    }

    var count: Int { kinds.count }

    private mutating func add(_ kind: Kind, _ a: Int32, _ b: Int32) -> Int32 {
        kinds.append(kind)
        self.a.append(a)
        self.b.append(b)
        return Int32(kinds.count - 1)
    }

    private mutating func set(_ set: ScalarSet) -> Int32 {
        sets.append(set)
        return Int32(sets.count - 1)
    }

    /// The entry state of `node` followed by `next`.
    private mutating func compile(_ node: PatternNode, then next: Int32) -> Int32 {
        switch node {
        case .set(let scalars):
            return add(.scalar, set(scalars), next)
        case .sequence(let items):
            var entry = next
            for item in items.reversed() { entry = compile(item, then: entry) }
            return entry
        case .alternation(let branches):
            var entry = compile(branches[branches.count - 1], then: next)
            for branch in branches.dropLast().reversed() {
                entry = add(.split, compile(branch, then: next), entry)
            }
            return entry
        case .repetition(let body, let min, let max):
            var entry: Int32
            if let max {
                entry = next
                for _ in 0..<(max - min) { entry = add(.split, compile(body, then: entry), next) }
            } else {
                // The loop: a split that enters the body, which comes back to the split.
                let loop = add(.split, 0, next)
                let inner = compile(body, then: loop)
                a[Int(loop)] = inner
                entry = loop
            }
            for _ in 0..<min { entry = compile(body, then: entry) }
            return entry
        }
    }

    /// Adds to `into` the states that read a scalar or accept, reachable from `states`
    /// without reading, in depth-first order (the first branch of a split first). `seen`
    /// holds a mark per state and `mark` is this walk's; an explicit stack, since chains of
    /// splits may be as long as the automaton.
    func closure(of states: [Int32], into: inout [Int32], seen: inout [UInt32], mark: UInt32, stack: inout [Int32]) {
        stack.removeAll(keepingCapacity: true)
        for state in states.reversed() { stack.append(state) }
        while let state = stack.popLast() {
            let k = Int(state)
            if seen[k] == mark { continue }
            seen[k] = mark
            switch kinds[k] {
            case .scalar, .match: into.append(state)
            case .split:
                stack.append(b[k])
                stack.append(a[k])
            }
        }
    }
}
