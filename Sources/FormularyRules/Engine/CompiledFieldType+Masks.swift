/// Masks chosen by the value (`mask "…" when /RE/`).
///
/// A type's masks up to and including the first without a condition take part: the
/// conditional ones in order (``CompiledFieldType/choices``), then the unconditional one
/// (``CompiledFieldType/mask``, nil when every mask has a condition). The first mask whose
/// condition matches the value's slot characters formats it and is its mask check; when
/// none does, the unconditional one does, and without one the value is left unmasked.
///
/// Slot characters are the normalized value's ASCII digits and Unicode letters — the
/// characters a slot can hold — with every other character left out; so the choice is the
/// same for a value and for its formatted text as long as the masks' literals are not
/// letters or digits. A condition matches as a whole in the final stage; in the live stage
/// it also matches when the slot characters are a prefix of something it matches (its
/// automaton is not in the dead state), and always when there are no slot characters yet.
///
/// Types with a single unconditional mask have no choices and never reach this code. A
/// condition costs one automaton step per byte of slot characters, and most values need not
/// run it: facts read from the automaton at load time, each sound, rule it out first — the
/// ASCII letters and digits it can start with, and the lengths of the slot strings it accepts
/// (final) or can still complete (live). A 16-digit card number starting with 4 runs none of
/// the built-in card's Amex, Diners, 13-digit Visa or UnionPay conditions.
final class MaskChoice: Sendable {
    let mask: CompiledMask
    let condition: PatternProgram
    let check: CompiledFieldType.MaskCheck?
    /// `check?.severity`, read by the fast path without copying the check.
    let severity: Severity?
    /// At most the fewest and at least the most scalars of a string of slot characters
    /// (letters and ASCII digits) the condition accepts; `minimum > maximum` when it accepts
    /// none. Measured over ASCII letters and digits and every non-ASCII scalar (which needs
    /// no Unicode table): never tighter than the slot characters', so never wrong to skip by.
    let minimum: Int, maximum: Int
    /// The most scalars of any string the condition accepts (`Int.max`: unbounded): a longer
    /// prefix has no completion.
    let liveMaximum: Int
    /// Bit `b` (of two words) set when the ASCII byte `b` leads somewhere from the start.
    let firstBytes: (UInt64, UInt64)
    /// `condition`, reached without reference counting on the hot path.
    private let conditionRef: Unmanaged<PatternProgram>

    init(mask: CompiledMask, condition: PatternProgram, check: CompiledFieldType.MaskCheck?) {
        self.mask = mask
        self.condition = condition
        conditionRef = Unmanaged.passUnretained(condition)
        self.check = check
        severity = check?.severity
        let automaton = condition.automaton
        let lengths = automaton.lengths(over: UnicodeProperty.slotCharactersBound)
        (minimum, maximum) = lengths.map { ($0.shortest, $0.longest ?? Int.max) } ?? (1, 0)
        liveMaximum = automaton.lengths(over: .all).map { $0.longest ?? Int.max } ?? -1
        var bits: (UInt64, UInt64) = (0, 0)
        for edge in automaton.start.flatMap({ automaton.transitions[$0] }) where edge.lo < 0x80 {
            for b in edge.lo...min(edge.hi, 0x7F) {
                if b < 64 { bits.0 |= 1 << UInt64(b) } else { bits.1 |= 1 << UInt64(b - 64) }
            }
        }
        firstBytes = bits
    }

    /// Whether a non-empty string of slot characters starting with the ASCII byte `byte` may
    /// be selected (``selects(_:scalars:live:scratch:)`` answers false for every other).
    func canStart(with byte: UInt8) -> Bool {
        (byte < 64 ? firstBytes.0 >> UInt64(byte) : firstBytes.1 >> UInt64(byte - 64)) & 1 == 1
    }

    /// Whether the condition selects `slots` (`scalars` of them) in `stage`.
    @inline(__always)
    func selects(_ slots: Bytes, scalars: Int, live: Bool, scratch: Scratch) -> Bool {
        if slots.isEmpty { return live || conditionRef._withUnsafeGuaranteedRef { $0.matches(slots, scratch: scratch) } }
        let first = slots[0]
        if first < 0x80 && (first < 64 ? firstBytes.0 >> UInt64(first) : firstBytes.1 >> UInt64(first - 64)) & 1 == 0 {
            return false
        }
        if live {
            return scalars <= liveMaximum && !conditionRef._withUnsafeGuaranteedRef { $0.end(slots, scratch: scratch).isDead }
        }
        return scalars >= minimum && scalars <= maximum
            && conditionRef._withUnsafeGuaranteedRef { $0.matches(slots, scratch: scratch) }
    }
}

extension CompiledFieldType {
    /// The index in ``choices`` of the mask chosen for `value` (normalized bytes) in
    /// `stage`, or -1 for the unconditional mask. Uses scratch buffer `index` (which `value`
    /// must not live in) for the slot characters.
    @inline(never)
    func chooseMask(_ value: Bytes, scratch: Scratch, buffer index: Int, stage: Stage) -> Int {
        if stage == .final, let table = choiceTable, let choice = table.choose(value) { return choice }
        let dst = scratch.buffer(index, capacity: value.count)
        let (n, scalars) = slotCharacters(of: value, into: dst)
        let slots = Bytes(start: dst, count: n)
        let live = stage == .live
        if n > 0 && dst[0] < 0x80 {
            // Only the choices that can start with this byte (the rest would answer false at
            // their first test): a card number starting with 4 tries 11 of the built-in
            // card's 49 conditions instead of walking past all of them.
            let first = Int(dst[0])
            return candidateStarts.withUnsafeBufferPointer { starts in
                candidates.withUnsafeBufferPointer { list in
                    choiceRefs.withUnsafeBufferPointer { all in
                        for c in Int(starts[first])..<Int(starts[first + 1]) {
                            let k = Int(list[c])
                            if all[k]._withUnsafeGuaranteedRef({
                                $0.selects(slots, scalars: scalars, live: live, scratch: scratch)
                            }) { return k }
                        }
                        return -1
                    }
                }
            }
        }
        return choiceRefs.withUnsafeBufferPointer { all in
            for k in 0..<all.count where all[k]._withUnsafeGuaranteedRef({
                $0.selects(slots, scalars: scalars, live: live, scratch: scratch)
            }) { return k }
            return -1
        }
    }

    /// Copies `value`'s slot characters (ASCII digits and letters, Unicode letters) to `dst`,
    /// which holds at least `value.count` bytes; returns their bytes and scalars.
    @inline(__always)
    func slotCharacters(of value: Bytes, into dst: UnsafeMutablePointer<UInt8>) -> (bytes: Int, scalars: Int) {
        var n = 0, i = 0, scalars = 0
        while i < value.count {
            let c = value[i]
            if c < 0x80 {
                if c.isASCIIDigit || c.isASCIILetter { dst[n] = c; n += 1; scalars += 1 }
                i += 1
                continue
            }
            let (s, length) = decodeScalar(value, at: i)
            if isLetter(s) {
                for k in 0..<length { dst[n + k] = value[i + k] }
                n += length
                scalars += 1
            }
            i += length
        }
        return (n, scalars)
    }

    /// Whether the type has any mask.
    var hasMask: Bool { mask != nil || !choices.isEmpty }

    /// The mask chosen for normalized `scalars` in `stage` (nil: no mask applies).
    func chosenMask(_ scalars: [Unicode.Scalar], stage: Stage) -> CompiledMask? {
        guard !choices.isEmpty else { return mask }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for s in scalars { bytes.append(contentsOf: UTF8.encode(s)!) }
        let choice = bytes.withUnsafeBufferPointer { b in
            Scratch.withCurrent { chooseMask(b, scratch: $0, buffer: 0, stage: stage) }
        }
        return choice < 0 ? mask : choices[choice].mask
    }

    /// The mask chosen for normalized `scalars` in `stage` and its fill check (nil: no mask
    /// applies).
    func chosenMaskAndCheck(_ scalars: [Unicode.Scalar], stage: Stage) -> (CompiledMask, MaskCheck?)? {
        guard !choices.isEmpty else { return mask.map { ($0, maskCheck) } }
        var bytes: [UInt8] = []
        for s in scalars { bytes.append(contentsOf: UTF8.encode(s)!) }
        let choice = bytes.withUnsafeBufferPointer { b in
            Scratch.withCurrent { chooseMask(b, scratch: $0, buffer: 0, stage: stage) }
        }
        if choice >= 0 { return (choices[choice].mask, choices[choice].check) }
        return mask.map { ($0, maskCheck) }
    }

    /// Whether any mask has a number group (`{01-12}`), which typing pads.
    var hasNumberGroups: Bool { mask?.numbers.isEmpty == false || choices.contains { !$0.mask.numbers.isEmpty } }

    /// The mask check of `choice` (as returned by ``chooseMask(_:scratch:buffer:stage:)``).
    func maskCheck(for choice: Int) -> MaskCheck? {
        choice < 0 ? maskCheck : choices[choice].check
    }
}
