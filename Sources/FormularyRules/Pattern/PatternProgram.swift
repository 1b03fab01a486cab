/// A compiled pattern, matching a value's UTF-8 bytes.
///
/// A `dfa` runs one table step per ASCII byte: each state has a row of 128 successors, and
/// only a non-ASCII scalar is decoded and looked up among the state's wider ranges. Eight
/// ASCII bytes at a time are stepped without a branch between them, and a state that only a
/// few ASCII bytes leave (`.*`, which only a line feed leaves) skips eight bytes at once when
/// none of them is there (see `PatternProgram+DFA.swift`). An `nfa` (above the DFA cap)
/// follows its set of states, at most its number of states per scalar, in working memory of
/// the thread's `Scratch`. Both are linear in the value's length; both stop at the first
/// scalar that leaves no continuation.
///
/// Immutable once built, so one program serves every thread; its tables are plain memory
/// (`@unchecked Sendable`), read without reference counting on the hot path.
package final class PatternProgram: @unchecked Sendable {
    /// What the program was compiled from, in the exported shape.
    package let automaton: PatternAutomaton
    package let isDFA: Bool

    /// Rows are states plus one: row 0 is the dead state, row r is state r − 1. The DFA's
    /// tables hold rows premultiplied by the row width, `1 << shift` (`offset`), so that a
    /// step is one addition.
    let rows: Int
    /// DFA: the start row's offset (0: the pattern matches nothing).
    let startOffset: Int
    /// DFA: log2 of a row's width: the number of byte classes rounded up to a power of two.
    let shift: Int
    /// DFA: the class of each ASCII byte. Bytes that lead every state to the same successor
    /// are one class (an e-mail pattern's 128 ASCII bytes are a dozen classes), so that a
    /// row holds a successor per class, not per byte: the e-mail DFA's table is 4 KiB
    /// instead of 35, and stays in the first-level cache beside the other fields' tables.
    let classOf: UnsafeMutablePointer<UInt8>
    /// DFA: `ascii[offset | classOf[byte]]` is the successor's offset on an ASCII byte.
    let ascii: UnsafeMutablePointer<UInt32>
    /// DFA: per row, 0 when eight bytes must be stepped one by one; else 1, followed by three
    /// words each repeating one of the (at most three) ASCII bytes that leave the row: a word
    /// of ASCII bytes without them leaves the row where it is.
    let acceleration: UnsafeMutablePointer<UInt64>
    let accepting: UnsafeMutablePointer<Bool>
    let universal: UnsafeMutablePointer<Bool>
    /// Per row, its transitions `lo/hi/target[rangeStart[row] ..< rangeStart[row + 1]]` (target
    /// rows): in a DFA only the ranges above ASCII; in an NFA all of them, sorted by `lo`.
    let rangeStart: UnsafeMutablePointer<Int32>
    let lo: UnsafeMutablePointer<UInt32>
    let hi: UnsafeMutablePointer<UInt32>
    let target: UnsafeMutablePointer<UInt32>
    /// NFA: the start rows.
    let starts: [UInt32]

    package init(_ automaton: PatternAutomaton) {
        self.automaton = automaton
        isDFA = automaton.kind == .dfa
        rows = automaton.stateCount + 1
        starts = automaton.start.map { UInt32($0 + 1) }
        // First the full table, a row of 128 per state (successor rows, premultiplied by 128);
        // compressed into byte classes below.
        let cells = isDFA ? rows << 7 : 1
        let full = UnsafeMutablePointer<UInt32>.allocate(capacity: cells)
        defer { full.deallocate() }
        full.initialize(repeating: 0, count: cells)
        let ascii = full
        acceleration = .allocate(capacity: rows * 4)
        acceleration.initialize(repeating: 0, count: rows * 4)
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
                    for byte in Int(edge.lo)...Int(min(edge.hi, 0x7F)) { ascii[row << 7 | byte] = UInt32((edge.target + 1) << 7) }
                    if edge.hi >= 0x80 { wide.append(Edge(lo: 0x80, hi: edge.hi, target: edge.target)) }
                } else {
                    wide.append(edge)
                }
            }
            starts.append(Int32(wide.count))
            if isDFA { Self.accelerate(row, ascii: ascii, into: acceleration) }
        }
        // Byte classes: bytes whose columns are equal in every row.
        classOf = .allocate(capacity: 128)
        classOf.initialize(repeating: 0, count: 128)
        var representatives: [Int] = []
        if isDFA {
            var classOfColumn: [HashedList<[UInt32]>: Int] = [:]
            for byte in 0..<128 {
                let column = HashedList((0..<rows).map { full[$0 << 7 | byte] >> 7 })
                if let known = classOfColumn[column] {
                    classOf[byte] = UInt8(known)
                } else {
                    classOfColumn[column] = representatives.count
                    classOf[byte] = UInt8(representatives.count)
                    representatives.append(byte)
                }
            }
        }
        var shift = 0
        while (1 << shift) < max(representatives.count, 1) { shift += 1 }
        self.shift = shift
        startOffset = automaton.start.first.map { ($0 + 1) << shift } ?? 0
        let width = 1 << shift
        let compressed = isDFA ? rows * width : 1
        self.ascii = .allocate(capacity: compressed)
        self.ascii.initialize(repeating: 0, count: compressed)
        if isDFA {
            for row in 0..<rows {
                for (k, byte) in representatives.enumerated() {
                    self.ascii[row * width + k] = (full[row << 7 | byte] >> 7) << UInt32(shift)
                }
            }
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

    /// Marks `row` for skipping when at most three ASCII bytes leave it.
    private static func accelerate(_ row: Int, ascii: UnsafeMutablePointer<UInt32>, into table: UnsafeMutablePointer<UInt64>) {
        let own = UInt32(row << 7)
        // No byte of an ASCII word is 0x80: a word of it is a byte that never leaves.
        var leaving: (UInt64, UInt64, UInt64) = (0x80, 0x80, 0x80)
        var count = 0
        for byte in 0..<128 where ascii[row << 7 | byte] != own {
            switch count {
            case 0: leaving = (UInt64(byte), UInt64(byte), UInt64(byte))
            case 1: leaving.1 = UInt64(byte); leaving.2 = UInt64(byte)
            case 2: leaving.2 = UInt64(byte)
            default: return
            }
            count += 1
        }
        let repeated: UInt64 = 0x0101_0101_0101_0101
        table[row * 4] = 1
        (table[row * 4 + 1], table[row * 4 + 2], table[row * 4 + 3]) = (leaving.0 &* repeated, leaving.1 &* repeated, leaving.2 &* repeated)
    }

    /// Compiles `source` with `flags`, bypassing the process's cache (for measuring), or nil
    /// when it does not compile.
    package static func uncached(_ source: String, flags: RegexFlags) -> PatternProgram? {
        guard let node = try? PatternParser.parse(source, flags: flags),
              let automaton = try? PatternAutomaton(node) else { return nil }
        return PatternProgram(automaton)
    }

    deinit {
        ascii.deallocate()
        classOf.deallocate()
        acceleration.deallocate()
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
    package func matches(_ b: UnsafeBufferPointer<UInt8>, scratch: Scratch) -> Bool {
        if isDFA { return accepting[dfaRow(after: b)] }
        return scratch.withPatternState { nfaEnd(b, $0) }.isAccepting
    }

    /// The state the value leaves the automaton in.
    @inline(__always)
    func end(_ b: Bytes, scratch: Scratch) -> End {
        if isDFA {
            let row = dfaRow(after: b)
            return End(isDead: row == 0, isAccepting: accepting[row], isUniversal: universal[row])
        }
        return scratch.withPatternState { nfaEnd(b, $0) }
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
}
