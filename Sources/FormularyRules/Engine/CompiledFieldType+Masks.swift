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
///
/// Before running a condition, two filters known at load time skip it when it cannot match:
/// its length bounds (PCRE2's minimum; the maximum read from the pattern, when bounded)
/// and the ASCII letters and digits a match can start with (found by partial matching each
/// one alone). So a card number starting with 4 costs no regex run for `when /3[47].*/`.
final class MaskChoice: Sendable {
    let mask: CompiledMask
    let condition: RegexProgram
    let check: CompiledFieldType.MaskCheck?
    /// `check?.severity`, read by the fast path without copying the check.
    let severity: Severity?
    /// The fewest and most characters a match spans (`Int.max`: unbounded or unknown).
    let minimumLength: Int, maximumLength: Int
    /// Bit `b` (of two words) set when ASCII byte `b` may start a match; only letters and
    /// digits are tested, the only ASCII bytes slot characters have.
    let firstBytes: (UInt64, UInt64)

    init(mask: CompiledMask, condition: RegexProgram, maximumLength: Int?, check: CompiledFieldType.MaskCheck?) {
        self.mask = mask
        self.condition = condition
        self.check = check
        severity = check?.severity
        minimumLength = condition.minimumLength
        self.maximumLength = maximumLength ?? Int.max
        var bits: (UInt64, UInt64) = (0, 0)
        let scratch = RegexScratch()
        for b in UInt8(0x30)...0x7A where b.isASCIIDigit || b.isASCIILetter {
            let outcome = [b].withUnsafeBufferPointer { condition.match($0, partial: true, scratch: scratch) }
            if outcome != .noMatch {
                if b < 64 { bits.0 |= 1 << UInt64(b) } else { bits.1 |= 1 << UInt64(b - 64) }
            }
        }
        firstBytes = bits
    }

    /// Whether the condition can match (or, live, partially match) slot characters of
    /// `scalars` characters starting with byte `first`.
    @inline(__always)
    func mayMatch(first: UInt8, scalars: Int, live: Bool) -> Bool {
        if scalars > maximumLength || (!live && scalars < minimumLength) { return false }
        if first >= 0x80 { return true }
        return first < 64 ? firstBytes.0 & (1 << UInt64(first)) != 0 : firstBytes.1 & (1 << UInt64(first - 64)) != 0
    }
}

extension CompiledFieldType {
    /// The index in ``choices`` of the mask chosen for `value` (normalized bytes) in
    /// `stage`, or -1 for the unconditional mask. Uses scratch buffer `index` (which `value`
    /// must not live in) for the slot characters.
    @inline(never)
    func chooseMask(_ value: Bytes, scratch: Scratch, buffer index: Int, stage: Stage) -> Int {
        let dst = scratch.buffer(index, capacity: value.count)
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
        let slots = Bytes(start: dst, count: n)
        let live = stage == .live
        for k in 0..<choices.count {
            if live && n == 0 { return k }
            if n > 0 && !choices[k].mayMatch(first: dst[0], scalars: scalars, live: live) { continue }
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
