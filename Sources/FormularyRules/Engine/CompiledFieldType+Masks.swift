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
/// it also matches when the slot characters are a prefix of something it matches (PCRE2
/// soft partial matching), and always when there are no slot characters yet. A condition
/// that exceeds its match budget counts as not matching.
///
/// Types with a single unconditional mask have no choices and never reach this code.
final class MaskChoice: Sendable {
    let mask: CompiledMask
    let condition: RegexProgram
    let check: CompiledFieldType.MaskCheck?
    /// `check?.severity`, read by the fast path without copying the check.
    let severity: Severity?

    init(mask: CompiledMask, condition: RegexProgram, check: CompiledFieldType.MaskCheck?) {
        self.mask = mask
        self.condition = condition
        self.check = check
        severity = check?.severity
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
        for k in 0..<choices.count {
            if live && n == 0 { return k }
            let outcome = scratch.withRegex { choices[k].condition.match(slots, partial: live, scratch: $0) }
            if outcome == .match || (live && outcome == .partial) { return k }
        }
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

    /// The mask check of `choice` (as returned by ``chooseMask(_:scratch:buffer:stage:)``).
    func maskCheck(for choice: Int) -> MaskCheck? {
        choice < 0 ? maskCheck : choices[choice].check
    }
}
