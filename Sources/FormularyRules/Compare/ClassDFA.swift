/// A deterministic automaton over the classes of a comparison, every state explicit: one
/// version's raw values (``init(model:budget:)``), or the product of two (``product``).
struct ClassDFA {
    let classCount: Int
    /// `table[s * classCount + c]`: the state after a scalar of class `c` (-1: none accepts).
    var table: [Int32]
    var accepting: [Bool]
    /// Per state, whether every scalar read to reach it was white space (the value so far
    /// is blank, absent).
    var blank: [Bool]
    var count: Int { accepting.count }

    func next(_ s: Int32, _ c: Int) -> Int32 { table[Int(s) * classCount + c] }

    /// The raw values `model` accepts, blank ones included (a blank value is absent, which
    /// every type accepts), state 0 first.
    ///
    /// A state is a set of threads (``ValueModel``) and whether the value is still blank;
    /// states are made breadth-first, each class in turn, within `budget`.
    init(model: ValueModel, budget: ComparisonBudget) throws(TooComplex) {
        classCount = model.classes.count
        // Hashed by one pass of a multiply-xor mix over every number: `Hasher` feeding each
        // number separately cost a fifth of the walk on types with many masks.
        struct Key: Hashable {
            var blank: Bool
            var threads: [[Int32]]
            func hash(into hasher: inout Hasher) {
                var h: UInt64 = blank ? 0x9E37_79B9_7F4A_7C15 : 0
                for t in threads {
                    for v in t { h = (h ^ UInt64(UInt32(bitPattern: v))) &* 0x100_0000_01B3 &+ 0x2545_F491 }
                    h = h &* 0xBF58_476D_1CE4_E5B9
                }
                hasher.combine(h)
            }
        }
        var keys = [Key(blank: model.blankIsAbsent, threads: try model.initialThread().map { [$0] } ?? [])]
        var index: [Key: Int32] = [keys[0]: 0]
        var table: [Int32] = []
        var accepting: [Bool] = []
        var blankStates: [Bool] = []
        var q = 0
        var buffer: [[Int32]] = []
        while q < keys.count {
            let key = keys[q]
            blankStates.append(key.blank)
            var accepts = key.blank
            for t in key.threads where !accepts { accepts = try model.accepts(t) }
            accepting.append(accepts)
            for c in 0..<classCount {
                let blank = key.blank && model.isWhiteSpace[c]
                buffer.removeAll(keepingCapacity: true)
                for t in key.threads { try model.advance(t, Int32(c), into: &buffer) }
                if buffer.isEmpty && !blank {
                    table.append(-1)
                    continue
                }
                buffer.sort { $0.lexicographicallyPrecedes($1) }
                var threads: [[Int32]] = []
                for t in buffer where threads.last != t { threads.append(t) }
                let next = Key(blank: blank, threads: threads)
                if let known = index[next] {
                    table.append(known)
                } else {
                    try budget.spend()
                    let id = Int32(keys.count)
                    index[next] = id
                    keys.append(next)
                    table.append(id)
                }
            }
            q += 1
        }
        self.table = table
        self.accepting = accepting
        blank = blankStates
    }

    init(classCount: Int, table: [Int32], accepting: [Bool], blank: [Bool]) {
        self.classCount = classCount
        self.table = table
        self.accepting = accepting
        self.blank = blank
    }

    /// Per state, whether some accepting state can be reached from it.
    func live() -> [Bool] {
        var incoming = [[Int32]](repeating: [], count: count)
        for s in 0..<count {
            for c in 0..<classCount {
                let t = table[s * classCount + c]
                if t >= 0 { incoming[Int(t)].append(Int32(s)) }
            }
        }
        var alive = accepting
        var work = (0..<count).filter { accepting[$0] }
        while let s = work.popLast() {
            for p in incoming[s] where !alive[Int(p)] {
                alive[Int(p)] = true
                work.append(Int(p))
            }
        }
        return alive
    }

    /// How two automata over the same classes are combined.
    enum Combination {
        /// Values `a` accepts and `b` does not.
        case difference
        /// Present values both accept (blank ones are absent, which every type accepts).
        case intersection
    }

    /// The product of `a` and `b` as `combination` says, only its states that can still
    /// reach acceptance kept reachable: empty (no state) when no value qualifies. States are
    /// found breadth-first, classes in `order`.
    static func product(_ a: ClassDFA, _ b: ClassDFA, _ combination: Combination, order: [Int],
                        budget: ComparisonBudget) throws(TooComplex) -> ClassDFA {
        let liveA = a.live(), liveB = b.live()
        let n = a.classCount
        guard liveA[0] && (combination == .difference || liveB[0]) else {
            return ClassDFA(classCount: n, table: [], accepting: [], blank: [])
        }
        // A state of `b` that cannot accept any more is one state, -1, for a difference.
        func key(_ x: Int32, _ y: Int32) -> Int64 { Int64(x) << 32 | Int64(UInt32(bitPattern: y)) }
        var pairs: [(Int32, Int32)] = [(0, liveB[0] ? 0 : -1)]
        var index: [Int64: Int32] = [key(0, pairs[0].1): 0]
        var table: [Int32] = []
        var accepting: [Bool] = []
        var blank: [Bool] = []
        var q = 0
        while q < pairs.count {
            let (x, y) = pairs[q]
            let acceptsB = y >= 0 && b.accepting[Int(y)]
            blank.append(a.blank[Int(x)])
            accepting.append(a.accepting[Int(x)]
                             && (combination == .difference ? !acceptsB : acceptsB && !a.blank[Int(x)]))
            var row = [Int32](repeating: -1, count: n)
            for c in order {
                let nx = a.next(x, c)
                guard nx >= 0, liveA[Int(nx)] else { continue }
                var ny: Int32 = y >= 0 ? b.next(y, c) : -1
                if ny >= 0 && !liveB[Int(ny)] { ny = -1 }
                if combination == .intersection && ny < 0 { continue }
                let k = key(nx, ny)
                if let known = index[k] { row[c] = known; continue }
                try budget.spend()
                let id = Int32(pairs.count)
                index[k] = id
                pairs.append((nx, ny))
                row[c] = id
            }
            table += row
            q += 1
        }
        return ClassDFA(classCount: n, table: table, accepting: accepting, blank: blank)
    }

    /// Whether the automaton accepts nothing.
    var isEmpty: Bool { count == 0 || !live()[0] }

    /// The shortest accepted string of classes, the earliest in `order` among the shortest
    /// (breadth-first, classes in that order, so the first accepting state dequeued is reached
    /// by the least such path); nil when nothing is accepted. Only classes in `order` are
    /// read: a subset of them asks for the shortest string of those.
    func shortest(order: [Int]) -> [Int]? {
        guard count > 0 else { return nil }
        var parent = [(Int32, Int32)](repeating: (-1, -1), count: count)
        var seen = [Bool](repeating: false, count: count)
        var queue: [Int32] = [0]
        seen[0] = true
        var q = 0
        while q < queue.count {
            let s = queue[q]
            if accepting[Int(s)] {
                var path: [Int] = []
                var at = s
                while at != 0 {
                    path.append(Int(parent[Int(at)].1))
                    at = parent[Int(at)].0
                }
                return path.reversed()
            }
            for c in order {
                let t = next(s, c)
                guard t >= 0, !seen[Int(t)] else { continue }
                seen[Int(t)] = true
                parent[Int(t)] = (s, Int32(c))
                queue.append(t)
            }
            q += 1
        }
        return nil
    }
}
