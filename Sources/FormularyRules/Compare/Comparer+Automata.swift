/// The automata of a comparison: two models over common classes, their product, and what
/// is asked of it beyond the two differences.
extension Comparer {
    /// Whether no present value is accepted by both (decided on the automata, which accept
    /// at least what the versions do; false when unknown).
    func disjoint(_ a: ComparedVersion, _ b: ComparedVersion) -> Bool {
        guard let common = try? Self.combine(a.parts(.proofAccepting), b.parts(.proofAccepting), .intersection, budget)
        else { return false }
        return Self.onlyBlank(common)
    }

    /// Whether the automaton accepts blank values only (every accepted path is white space).
    static func onlyBlank(_ c: Combined) -> Bool {
        // Breadth-first over (state, whether a scalar other than white space was read).
        let n = c.classes.count
        let white = (0..<n).map { PipelineSets.whiteSpace.contains(c.classes.representatives[$0]) }
        var seen = [Bool](repeating: false, count: c.dfa.count)
        var nonBlank = [Bool](repeating: false, count: c.dfa.count)
        var queue: [(Int32, Bool)] = [(0, false)]
        seen[0] = true
        var q = 0
        while q < queue.count {
            let (s, hasText) = queue[q]
            q += 1
            if hasText && c.dfa.accepting[Int(s)] { return false }
            for k in 0..<n {
                let t = c.dfa.next(s, k)
                guard t >= 0 else { continue }
                let text = hasText || !white[k]
                if text ? !nonBlank[Int(t)] : !seen[Int(t)] {
                    if text { nonBlank[Int(t)] = true } else { seen[Int(t)] = true }
                    queue.append((t, text))
                }
            }
        }
        return true
    }

    /// Two models over common classes, combined.
    struct Combined {
        var dfa: ClassDFA
        var classes: ScalarClasses
        var order: [Int]

        /// The classes of `order` that hold printable ASCII (a witness made of them reads
        /// best, so it is looked for first).
        var printable: [Int] { order.filter { (0x20...0x7E).contains(classes.representatives[$0]) } }

        func text(_ path: [Int]) -> String {
            var view = String.UnicodeScalarView()
            for c in path { view.append(Unicode.Scalar(classes.representatives[c])!) }
            return String(view)
        }
    }

    /// Two models over common classes, each as its automaton, ready to be combined.
    struct Prepared {
        var classes: ScalarClasses
        var order: [Int]
        var a: ClassDFA
        var b: ClassDFA

        /// `a` and `b` combined (`b` and `a` when `swapped`).
        func combined(_ combination: ClassDFA.Combination, swapped: Bool = false,
                      budget: ComparisonBudget) throws(TooComplex) -> Combined {
            let (x, y) = swapped ? (b, a) : (a, b)
            return Combined(dfa: try ClassDFA.product(x, y, combination, order: order, budget: budget),
                            classes: classes, order: order)
        }
    }

    static func prepare(_ pa: ValueModelParts, _ pb: ValueModelParts,
                        _ budget: ComparisonBudget) throws(TooComplex) -> Prepared {
        var builder = ScalarClassBuilder()
        var component = 0
        pa.contribute(to: &builder, component: &component)
        pb.contribute(to: &builder, component: &component)
        for (k, set) in [PipelineSets.whiteSpace, PipelineSets.slots, PipelineSets.digits, UnicodeTables.letters].enumerated() {
            builder.add(set, tag: -10 - k)
        }
        let normalized = builder.build()
        let classes = ScalarClasses.meet([pa.rawClasses(from: normalized), pb.rawClasses(from: normalized)])
        let ma = try ValueModel(pa, classes: classes, budget: budget)
        let mb = try ValueModel(pb, classes: classes, budget: budget)
        let order = (0..<classes.count).sorted {
            let (x, y) = (classes.representatives[$0], classes.representatives[$1])
            return (ScalarClasses.rank(x), x) < (ScalarClasses.rank(y), y)
        }
        return Prepared(classes: classes, order: order, a: try ClassDFA(model: ma, budget: budget),
                        b: try ClassDFA(model: mb, budget: budget))
    }

    static func combine(_ pa: ValueModelParts, _ pb: ValueModelParts, _ combination: ClassDFA.Combination,
                        _ budget: ComparisonBudget) throws(TooComplex) -> Combined {
        try prepare(pa, pb, budget).combined(combination, budget: budget)
    }
}
