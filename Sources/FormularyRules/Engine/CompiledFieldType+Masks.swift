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
/// condition costs one automaton step per byte of slot characters and stops at the first
/// that leaves no match possible (a card number starting with 4 stops `/3[47].*/` at once).
final class MaskChoice: Sendable {
    let mask: CompiledMask
    let condition: PatternProgram
    let check: CompiledFieldType.MaskCheck?
    /// `check?.severity`, read by the fast path without copying the check.
    let severity: Severity?

    init(mask: CompiledMask, condition: PatternProgram, check: CompiledFieldType.MaskCheck?) {
        self.mask = mask
        self.condition = condition
        self.check = check
        severity = check?.severity
    }

    /// Whether the condition selects `slots` in `stage`.
    @inline(__always)
    func selects(_ slots: Bytes, live: Bool, scratch: Scratch) -> Bool {
        if !live { return condition.matches(slots, scratch: scratch) }
        return slots.isEmpty || !condition.end(slots, scratch: scratch).isDead
    }
}

extension CompiledFieldType {
    /// The index in ``choices`` of the mask chosen for `value` (normalized bytes) in
    /// `stage`, or -1 for the unconditional mask. Uses scratch buffer `index` (which `value`
    /// must not live in) for the slot characters.
    @inline(never)
    func chooseMask(_ value: Bytes, scratch: Scratch, buffer index: Int, stage: Stage) -> Int {
        let dst = scratch.buffer(index, capacity: value.count)
        var n = 0, i = 0
        while i < value.count {
            let c = value[i]
            if c < 0x80 {
                if c.isASCIIDigit || c.isASCIILetter { dst[n] = c; n += 1 }
                i += 1
                continue
            }
            let (s, length) = decodeScalar(value, at: i)
            if isLetter(s) {
                for k in 0..<length { dst[n + k] = value[i + k] }
                n += length
            }
            i += length
        }
        let slots = Bytes(start: dst, count: n)
        let live = stage == .live
        for k in 0..<choices.count where choices[k].selects(slots, live: live, scratch: scratch) { return k }
        return -1
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
