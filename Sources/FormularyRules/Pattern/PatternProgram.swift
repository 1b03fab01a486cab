/// A compiled pattern, matching a value's UTF-8 bytes.
///
/// A `dfa` runs one table step per ASCII byte: each state has a row of 128 successors, and
/// only a non-ASCII scalar is decoded and looked up among the state's wider ranges. An `nfa`
/// (above the DFA cap) follows its set of states, at most its number of states per scalar,
/// in working memory of the thread's `Scratch`. Both are linear in the value's length; both
/// stop at the first scalar that leaves no continuation.
///
/// Immutable once built, so one program serves every thread; its tables are plain memory
/// (`@unchecked Sendable`), read without reference counting on the hot path.
final class PatternProgram: @unchecked Sendable {
    /// What the program was compiled from, in the exported shape.
    let automaton: PatternAutomaton
    let isDFA: Bool

    /// Rows are states plus one: row 0 is the dead state, row r is state r − 1.
    private let rows: Int
    private let startRow: UInt32
    /// DFA: `ascii[row << 7 | byte]` is the successor row on an ASCII byte.
    private let ascii: UnsafeMutablePointer<UInt32>
    private let accepting: UnsafeMutablePointer<Bool>
    private let universal: UnsafeMutablePointer<Bool>
    /// Per row, its transitions `wide[rangeStart[row] ..< rangeStart[row + 1]]`: in a DFA only
    /// the ranges above ASCII; in an NFA all of them, sorted by `lo`.
    private let rangeStart: UnsafeMutablePointer<Int32>
    private let lo: UnsafeMutablePointer<UInt32>
    private let hi: UnsafeMutablePointer<UInt32>
    private let target: UnsafeMutablePointer<UInt32>
    /// NFA: the start rows.
    private let starts: [UInt32]

    init(_ automaton: PatternAutomaton) {
        self.automaton = automaton
        isDFA = automaton.kind == .dfa
        rows = automaton.stateCount + 1
        startRow = automaton.start.first.map { UInt32($0 + 1) } ?? 0
        starts = automaton.start.map { UInt32($0 + 1) }
        ascii = .allocate(capacity: isDFA ? rows << 7 : 1)
        ascii.initialize(repeating: 0, count: isDFA ? rows << 7 : 1)
        accepting = .allocate(capacity: rows)
        accepting.initialize(repeating: false, count: rows)
        universal = .allocate(capacity: rows)
        universal.initialize(repeating: false, count: rows)
        for state in automaton.accepting { accepting[state + 1] = true }
        for state in automaton.universal { universal[state + 1] = true }
        var wide: [Edge] = []
        var starts: [Int32] = [0, 0]
        for (state, edges) in automaton.transitions.enumerated() {
            let row = state + 1
            for edge in edges {
                if isDFA && edge.lo < 0x80 {
                    for byte in Int(edge.lo)...Int(min(edge.hi, 0x7F)) { ascii[row << 7 | byte] = UInt32(edge.target + 1) }
                    if edge.hi >= 0x80 { wide.append(Edge(lo: 0x80, hi: edge.hi, target: edge.target)) }
                } else {
                    wide.append(edge)
                }
            }
            starts.append(Int32(wide.count))
        }
        rangeStart = .allocate(capacity: starts.count)
        rangeStart.initialize(from: starts, count: starts.count)
        let n = max(wide.count, 1)
        lo = .allocate(capacity: n)
        hi = .allocate(capacity: n)
        target = .allocate(capacity: n)
        for (k, edge) in wide.enumerated() {
            lo[k] = edge.lo
            hi[k] = edge.hi
            target[k] = UInt32(edge.target + 1)
        }
    }

    deinit {
        ascii.deallocate()
        accepting.deallocate()
        universal.deallocate()
        rangeStart.deallocate()
        lo.deallocate()
        hi.deallocate()
        target.deallocate()
    }

    /// Where a value leaves the automaton.
    struct End {
        /// No continuation of the value can match.
        var isDead: Bool
        /// The value matches.
        var isAccepting: Bool
        /// Every continuation of the value matches (known for a `dfa` only).
        var isUniversal: Bool
    }

    /// Whether the whole value matches.
    @inline(__always)
    func matches(_ b: Bytes, scratch: Scratch) -> Bool {
        if isDFA { return accepting[Int(dfaRow(after: b))] }
        return scratch.withPatternState { nfaEnd(b, $0) }.isAccepting
    }

    /// The state the value leaves the automaton in.
    @inline(__always)
    func end(_ b: Bytes, scratch: Scratch) -> End {
        if isDFA {
            let row = Int(dfaRow(after: b))
            return End(isDead: row == 0, isAccepting: accepting[row], isUniversal: universal[row])
        }
        return scratch.withPatternState { nfaEnd(b, $0) }
    }

    /// The DFA's row after `b` (0: dead).
    @inline(__always)
    private func dfaRow(after b: Bytes) -> UInt32 {
        var row = startRow
        guard row != 0, let base = b.baseAddress else { return row }
        let n = b.count
        var i = 0
        while i < n {
            let c = base[i]
            if c < 0x80 {
                row = ascii[Int(row) &<< 7 | Int(c)]
                i &+= 1
            } else {
                let (scalar, length) = Self.decode(base, i, n)
                row = wideTarget(row: row, scalar: scalar)
                i &+= length
            }
            if row == 0 { return 0 }
        }
        return row
    }

    /// The successor of `row` on a non-ASCII scalar: a binary search of the row's ranges.
    @inline(__always)
    private func wideTarget(row: UInt32, scalar: UInt32) -> UInt32 {
        var low = Int(rangeStart[Int(row)]), high = Int(rangeStart[Int(row) + 1])
        while low < high {
            let middle = (low + high) >> 1
            if hi[middle] < scalar { low = middle + 1 } else { high = middle }
        }
        return low < Int(rangeStart[Int(row) + 1]) && lo[low] <= scalar ? target[low] : 0
    }

    /// Decodes the scalar of well-formed UTF-8 starting at `i` (a lead byte at 0x80 or above).
    @inline(__always)
    static func decode(_ p: UnsafePointer<UInt8>, _ i: Int, _ n: Int) -> (UInt32, Int) {
        let b0 = UInt32(p[i])
        if b0 < 0xE0, i + 1 < n {
            return ((b0 & 0x1F) << 6 | UInt32(p[i + 1] & 0x3F), 2)
        }
        if b0 < 0xF0, i + 2 < n {
            return ((b0 & 0x0F) << 12 | UInt32(p[i + 1] & 0x3F) << 6 | UInt32(p[i + 2] & 0x3F), 3)
        }
        if i + 3 < n {
            return ((b0 & 0x07) << 18 | UInt32(p[i + 1] & 0x3F) << 12 | UInt32(p[i + 2] & 0x3F) << 6
                    | UInt32(p[i + 3] & 0x3F), 4)
        }
        return (0xFFFD, n - i)   // truncated: never in a Swift string
    }

    /// Follows the NFA's set of states over `b`.
    private func nfaEnd(_ b: Bytes, _ state: PatternScratch) -> End {
        state.reserve(rows)
        var current = state.current, next = state.next
        var count = 0
        var generation = state.nextGeneration()
        for row in starts where state.mark[Int(row)] != generation {
            state.mark[Int(row)] = generation
            current[count] = row
            count += 1
        }
        if let base = b.baseAddress {
            var i = 0
            while i < b.count && count > 0 {
                let scalar: UInt32
                if base[i] < 0x80 {
                    scalar = UInt32(base[i])
                    i += 1
                } else {
                    let (decoded, length) = Self.decode(base, i, b.count)
                    scalar = decoded
                    i += length
                }
                generation = state.nextGeneration()
                var nextCount = 0
                for k in 0..<count {
                    let row = Int(current[k])
                    for x in Int(rangeStart[row])..<Int(rangeStart[row + 1]) {
                        if lo[x] > scalar { break }
                        let t = target[x]
                        if hi[x] >= scalar && state.mark[Int(t)] != generation {
                            state.mark[Int(t)] = generation
                            next[nextCount] = t
                            nextCount += 1
                        }
                    }
                }
                swap(&current, &next)
                count = nextCount
            }
        }
        var accepted = false
        for k in 0..<count where accepting[Int(current[k])] { accepted = true }
        return End(isDead: count == 0, isAccepting: accepted, isUniversal: false)
    }
}

/// One thread's working memory for following an NFA's set of states: two lists of rows and
/// a mark per row (the generation that last added it), grown to the largest program used.
final class PatternScratch {
    private(set) var current: UnsafeMutablePointer<UInt32>
    private(set) var next: UnsafeMutablePointer<UInt32>
    private(set) var mark: UnsafeMutablePointer<UInt32>
    private var capacity = 0
    private var generation: UInt32 = 0

    init() {
        current = .allocate(capacity: 1)
        next = .allocate(capacity: 1)
        mark = .allocate(capacity: 1)
    }

    deinit {
        current.deallocate()
        next.deallocate()
        mark.deallocate()
    }

    /// A generation no row is marked with yet.
    func nextGeneration() -> UInt32 {
        if generation == UInt32.max {
            mark.update(repeating: 0, count: capacity)
            generation = 0
        }
        generation += 1
        return generation
    }

    /// Room for `rows` rows.
    func reserve(_ rows: Int) {
        guard rows > capacity else { return }
        current.deallocate()
        next.deallocate()
        mark.deallocate()
        current = .allocate(capacity: rows)
        next = .allocate(capacity: rows)
        mark = .allocate(capacity: rows)
        mark.initialize(repeating: 0, count: rows)
        generation = 0
        capacity = rows
    }
}
