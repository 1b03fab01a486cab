/// The final stage's mask choice as one automaton: the product of every choice's condition
/// over the ASCII slot characters, each state knowing the first condition that accepts there.
///
/// ``CompiledFieldType/chooseMask(_:scratch:buffer:stage:)`` otherwise copies the value's slot
/// characters and runs the condition of each candidate mask over them in turn: a 16-digit
/// Visa number runs four of the built-in card's 43 conditions, a fifth of a batch run's
/// judging. The product runs once over the value's bytes, copies nothing, and stops as soon as
/// the answer cannot change: when no condition can match any more, or when the first
/// condition still alive accepts every continuation (`4.*` after the last longer-prefixed
/// brand has died).
///
/// Built on request, for batch validation only (``CompiledFieldType/tunedForBatch()``): the
/// construction costs about 2 ms for the built-in card, which a one-off `check` should not
/// pay. Only conditions compiled as a DFA take part; a type with an NFA condition, or whose
/// product would exceed ``stateCap`` states, keeps the per-condition path. A value with a
/// non-ASCII byte before the answer is decided also takes that path, so the table only has
/// to be right for ASCII slot characters, and it is the same function as the path it
/// replaces: the first condition, in order, that matches the slot characters as a whole.
final class MaskChoiceTable: @unchecked Sendable {
    /// The most product states built before giving up on the table.
    static let stateCap = 4096
    /// A step's answer for a non-ASCII byte: the table cannot say, the caller decides.
    private static let bail = Int32.min

    /// Per byte, its column: a class of slot characters, then one column for the other ASCII
    /// bytes (which leave every state where it is) and one for non-ASCII bytes (``bail``).
    private let classOf: UnsafeMutablePointer<UInt8>
    private let shift: Int
    /// `next[offset | column]`: the successor's offset (its index shifted by ``shift``), or
    /// `~index` when the successor is decided (every continuation gives the same answer;
    /// the dead state is), or ``bail``.
    private let next: UnsafeMutablePointer<Int32>
    /// Per state, the index of the first condition accepting there, or -1.
    private let answer: UnsafeMutablePointer<Int16>
    /// The start state: its offset, or `~index` when decided.
    private let start: Int32
    let stateCount: Int

    /// The ASCII slot characters: digits, then upper- and lower-case letters.
    private static let slotBytes: [UInt8] = Array(0x30...0x39) + Array(0x41...0x5A) + Array(0x61...0x7A)

    /// Builds the table for `conditions` (in choice order), or nil when one is not a DFA or
    /// the product grows past ``stateCap``.
    init?(conditions: [PatternAutomaton]) {
        guard !conditions.isEmpty, conditions.count < Int(Int16.max),
              conditions.allSatisfy({ $0.kind == .dfa }) else { return nil }
        let bytes = Self.slotBytes, slotCount = bytes.count
        // Every condition's states numbered together (condition i's state s is
        // `base[i] + s`), in flat arrays: the construction touches them millions of times.
        var base: [Int] = [], starts: [Int32] = []
        var steps: [Int32] = [], accepting: [Bool] = [], universal: [Bool] = []
        steps.reserveCapacity(conditions.reduce(0) { $0 + $1.stateCount } * slotCount)
        for automaton in conditions {
            base.append(accepting.count)
            starts.append(Int32(automaton.start.first ?? -1))
            for edges in automaton.transitions {
                // `steps[(base + state) * slotCount + k]`: the successor on the k-th slot byte.
                for b in bytes { steps.append(edges.first { $0.lo <= UInt32(b) && UInt32(b) <= $0.hi }?.target ?? -1) }
            }
            let first = accepting.count
            accepting += repeatElement(false, count: automaton.stateCount)
            universal += repeatElement(false, count: automaton.stateCount)
            for state in automaton.accepting { accepting[first + state] = true }
            for state in automaton.universal { universal[first + state] = true }
        }
        let total = accepting.count
        // Slot bytes that every state of every condition treats alike are one class.
        var classOfSlot = [Int](repeating: 0, count: slotCount)
        var representatives: [Int] = []
        var known: [HashedList<[Int32]>: Int] = [:]
        for k in 0..<slotCount {
            let column = HashedList((0..<total).map { steps[$0 * slotCount + k] })
            if let existing = known[column] {
                classOfSlot[k] = existing
            } else {
                known[column] = representatives.count
                classOfSlot[k] = representatives.count
                representatives.append(k)
            }
        }
        let classes = representatives.count

        // Breadth-first over tuples of component states (-1: dead), canonical: a condition
        // after the first one alive whose state accepts everything can never be chosen.
        func canonical(_ tuple: inout [Int32]) {
            var firstUniversal = false
            for i in tuple.indices {
                if firstUniversal { tuple[i] = -1; continue }
                let s = tuple[i]
                if s >= 0 && universal[base[i] + Int(s)] { firstUniversal = true }
            }
        }
        // Keyed by the live components only: most of a tuple is dead, and hashing it whole
        // was most of the construction's time.
        func key(_ tuple: [Int32]) -> HashedList<[Int32]> {
            var key: [Int32] = []
            key.reserveCapacity(2 * tuple.count)
            for (i, s) in tuple.enumerated() where s >= 0 { key.append(Int32(i)); key.append(s) }
            return HashedList(key)
        }
        var index: [HashedList<[Int32]>: Int32] = [:]
        var tuples: [[Int32]] = [[Int32](repeating: -1, count: conditions.count)]   // state 0: dead
        index[HashedList([])] = 0
        var startTuple = starts
        canonical(&startTuple)
        if index[key(startTuple)] == nil {
            index[key(startTuple)] = Int32(tuples.count)
            tuples.append(startTuple)
        }
        var transitions: [Int32] = []
        var state = 0
        while state < tuples.count {
            let tuple = tuples[state]
            for r in representatives {
                var successor = tuple
                for i in successor.indices where successor[i] >= 0 {
                    successor[i] = steps[(base[i] + Int(successor[i])) * slotCount + r]
                }
                canonical(&successor)
                let k = key(successor)
                if let known = index[k] {
                    transitions.append(known)
                } else {
                    guard tuples.count < Self.stateCap else { return nil }
                    index[k] = Int32(tuples.count)
                    transitions.append(Int32(tuples.count))
                    tuples.append(successor)
                }
            }
            state += 1
        }

        stateCount = tuples.count
        var decided = [Bool](repeating: false, count: tuples.count)
        answer = .allocate(capacity: tuples.count)
        for (s, tuple) in tuples.enumerated() {
            let first = tuple.indices.first { tuple[$0] >= 0 && accepting[base[$0] + Int(tuple[$0])] }
            answer[s] = Int16(first ?? -1)
            // Decided: nothing alive, or the first alive condition accepts every continuation.
            let alive = tuple.indices.first { tuple[$0] >= 0 }
            decided[s] = alive.map { universal[base[$0] + Int(tuple[$0])] } ?? true
        }
        var shift = 0
        while 1 << shift < classes + 2 { shift += 1 }
        self.shift = shift
        func encoded(_ state: Int32) -> Int32 { decided[Int(state)] ? ~state : state << Int32(shift) }
        let width = 1 << shift
        next = .allocate(capacity: tuples.count * width)
        next.initialize(repeating: Self.bail, count: tuples.count * width)
        for s in tuples.indices {
            for c in 0..<classes { next[s * width + c] = encoded(transitions[s * classes + c]) }
            next[s * width + classes] = encoded(Int32(s))   // another ASCII byte: stay
        }
        start = encoded(index[key(startTuple)]!)
        classOf = .allocate(capacity: 256)
        classOf.initialize(repeating: UInt8(classes + 1), count: 256)
        for b in 0..<128 { classOf[b] = UInt8(classes) }
        for (k, b) in bytes.enumerated() { classOf[Int(b)] = UInt8(classOfSlot[k]) }
    }

    deinit {
        classOf.deallocate()
        next.deallocate()
        answer.deallocate()
    }

    /// The index of the first condition matching `value`'s slot characters as a whole (-1:
    /// none), or nil when a non-ASCII byte comes before the answer is decided.
    @inline(__always)
    func choose(_ value: Bytes) -> Int? {
        var offset = Int(start)
        if offset < 0 { return Int(answer[~offset]) }
        if let base = value.baseAddress {
            for i in 0..<value.count {
                let t = next[offset | Int(classOf[Int(base[i])])]
                if t < 0 {
                    if t == Self.bail { return nil }
                    return Int(answer[Int(~t)])
                }
                offset = Int(t)
            }
        }
        return Int(answer[offset >> shift])
    }
}
