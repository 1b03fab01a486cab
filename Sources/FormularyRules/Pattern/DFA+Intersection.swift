/// The product of two automata: the values both accept.
extension DFA {
    /// The DFA accepting what both `a` and `b` (DFAs) accept, trimmed and minimized; nil when
    /// either is an NFA or the product needs more than `cap` states.
    ///
    /// States are pairs, found breadth-first from the pair of starts; a pair's edges are the
    /// overlaps of the two states' sorted edge lists, walked together once.
    init?(intersectionOf a: PatternAutomaton, _ b: PatternAutomaton, cap: Int = PatternAutomaton.dfaCap) {
        guard a.kind == .dfa, b.kind == .dfa else { return nil }
        guard let startA = a.start.first, let startB = b.start.first else {
            self = DFA(edges: [], accepting: [], start: nil)
            return
        }
        let acceptingA = Set(a.accepting), acceptingB = Set(b.accepting)
        var pairs: [(Int32, Int32)] = [(Int32(startA), Int32(startB))]
        var index: [Int64: Int32] = [Int64(startA) << 32 | Int64(startB): 0]
        var edges: [[Edge]] = []
        var accepting: [Bool] = []
        var q = 0
        while q < pairs.count {
            let (x, y) = pairs[q]
            accepting.append(acceptingA.contains(Int(x)) && acceptingB.contains(Int(y)))
            var list: [Edge] = []
            let ea = a.transitions[Int(x)], eb = b.transitions[Int(y)]
            var i = 0, j = 0
            while i < ea.count && j < eb.count {
                let lo = max(ea[i].lo, eb[j].lo), hi = min(ea[i].hi, eb[j].hi)
                if lo <= hi {
                    let key = Int64(ea[i].target) << 32 | Int64(eb[j].target)
                    let target: Int32
                    if let known = index[key] {
                        target = known
                    } else {
                        guard pairs.count < cap else { return nil }
                        target = Int32(pairs.count)
                        index[key] = target
                        pairs.append((ea[i].target, eb[j].target))
                    }
                    // Neighbouring overlaps into the same pair are one edge.
                    if let last = list.last, last.target == target, last.hi &+ 1 == lo {
                        list[list.count - 1].hi = hi
                    } else {
                        list.append(Edge(lo: lo, hi: hi, target: target))
                    }
                }
                if ea[i].hi < eb[j].hi { i += 1 } else { j += 1 }
            }
            edges.append(list)
            q += 1
        }
        self.init(edges: edges, accepting: accepting, start: 0)
        trim()
        minimize()
        renumberBreadthFirst()
    }
}

extension PatternProgram {
    /// One program accepting what every one of `programs` accepts (all DFAs), or nil when one
    /// is an NFA or the product passes the DFA cap.
    static func intersection(of programs: [PatternProgram]) -> PatternProgram? {
        guard var automaton = programs.first?.automaton else { return nil }
        for program in programs.dropFirst() {
            guard let dfa = DFA(intersectionOf: automaton, program.automaton) else { return nil }
            automaton = PatternAutomaton(dfa)
        }
        return PatternProgram(automaton)
    }
}
