/// One pass over a value for the types whose final stage only needs its digits: a card
/// number, a phone number. Such a type strips separators (`strip`, `strip-spaces`), formats
/// the digits left with a mask of digit slots only, and checks nothing that reads the
/// formatted text beyond its digits and its length (`mask-one-of`, a `luhn` checksum,
/// `length`).
///
/// The general path makes a pass per step: UTF-8 validation, the blank test, each strip,
/// the mask's formatting (whose text only Luhn reads, skipping the literals), Luhn. For a
/// value of ASCII digits and separators the plan copies the digits in one pass, chooses the
/// mask over them, and knows without formatting that the mask is filled (as many digits as
/// slots; no literal is a digit, so none consumes one) and how long the formatted text is.
///
/// It answers only what it can answer exactly as the general path would: for any other
/// value (a byte that is neither a digit nor removed, no digit at all, a digit count that
/// does not fill the chosen mask, no mask chosen) it returns nil and the general path
/// judges. `DigitPlanTests` compares the two over generated values.
final class DigitPlan: Sendable {
    /// Per byte: 0 removed by the steps, 1 a digit kept, 2 anything else (the plan gives up).
    /// Non-ASCII bytes are 2.
    private let classes: [UInt8]
    /// Per mask (index `choice + 1`, 0 for the unconditional mask): its digit slots (0: no
    /// such mask).
    private let slots: [Int]
    private let checks: [Check]
    /// Per check `c` and mask `m`: whether a `length` check passes the mask's formatted
    /// text, `lengthPasses[c * slots.count + m]` (the text's length does not depend on
    /// which digits fill it).
    private let lengthPasses: [Bool]

    /// A check's kind and severity: plain values, so that walking them retains nothing.
    enum Check: Sendable {
        /// `mask-one-of`: check `index` of the type, whose per-mask answers the type keeps.
        case maskOneOf(index: Int, severity: Severity)
        case luhn(Severity)
        case length(Severity)

        var severity: Severity {
            switch self {
            case .maskOneOf(_, let s), .luhn(let s), .length(let s): s
            }
        }
    }

    /// The plan for a type, or nil when the type does more than the plan knows: another
    /// normalization step, a mask with a letter slot or a digit literal, a mask choice
    /// without its table, a pattern or any other check.
    init?(steps: [NormalizeOperation], mask: CompiledMask?, choices: [MaskChoice], choiceTable: MaskChoiceTable?,
          checks: [CompiledCheck]) {
        guard mask != nil || !choices.isEmpty, choices.isEmpty || choiceTable != nil else { return nil }
        var classes = [UInt8](repeating: 2, count: 256)
        for digit in 0x30...0x39 { classes[digit] = 1 }
        for step in steps {
            switch step {
            case .stripSpaces:
                for b: UInt8 in 0..<0x80 where b.isASCIIWhiteSpace { classes[Int(b)] = 0 }
            case .strip(let set):
                for b: UInt8 in 0..<0x80 where set.containsASCII(b) { classes[Int(b)] = 0 }
            default:
                return nil
            }
        }
        // Each mask formatting a value that fills it: its digit slots filled with zeros.
        var slots: [Int] = [], texts: [[UInt8]] = []
        for m in [mask] + choices.map(\.mask) {
            guard let m else { slots.append(0); texts.append([]); continue }   // no unconditional mask
            guard m.digitSlots > 0 else { return nil }
            slots.append(m.digitSlots)
            texts.append(Array(m.display.utf8))
        }
        var planned: [Check] = [], lengthPasses: [Bool] = []
        for (i, check) in checks.enumerated() {
            switch check.kind {
            case .maskOneOf: planned.append(.maskOneOf(index: i, severity: check.severity))
            case .checksum(.luhn): planned.append(.luhn(check.severity))
            case .length:
                planned.append(.length(check.severity))
                let scratch = Scratch()
                for text in texts {
                    lengthPasses.append(text.withUnsafeBufferPointer { check.evaluate($0, stage: .final, scratch: scratch) })
                }
                continue
            default: return nil
            }
            lengthPasses += repeatElement(true, count: texts.count)
        }
        (self.classes, self.slots, self.checks, self.lengthPasses) = (classes, slots, planned, lengthPasses)
    }

    /// Whether `raw` passes the final stage, or nil when the plan cannot tell (the general
    /// path judges). `maskOneOf(check, choice)` answers a `mask-one-of` check for a chosen mask
    /// (-1: the unconditional one).
    @inline(__always)
    func passes(_ raw: Bytes, scratch: Scratch, choiceTable: MaskChoiceTable?, countingWarnings: Bool,
                maskOneOf: (Int, Int) -> Bool) -> Bool? {
        guard let base = raw.baseAddress else { return nil }
        let dst = scratch.buffer(0, capacity: raw.count)
        var n = 0
        var other: UInt8 = 0
        classes.withUnsafeBufferPointer { classes in
            // Every byte is stored; only digits advance (no branch per byte: separators come
            // every few digits, which a branch predicts poorly).
            for i in 0..<raw.count {
                let c = base[i]
                let k = classes[Int(c)]
                dst[n] = c
                n &+= Int(k & 1)
                other |= k & 2
            }
        }
        guard other == 0, n > 0 else { return nil }
        let digits = Bytes(start: dst, count: n)
        var choice = -1
        if let choiceTable {
            guard let chosen = choiceTable.choose(digits) else { return nil }
            choice = chosen
        }
        let m = choice &+ 1
        // Filled (the fill check passes, whatever its severity); otherwise, or with no mask,
        // the general path says what fails.
        guard slots.withUnsafeBufferPointer({ $0[m] }) == n else { return nil }
        let masks = slots.count
        return checks.withUnsafeBufferPointer { checks in
            for c in 0..<checks.count {
                let check = checks[c]
                guard countingWarnings || check.severity == .error else { continue }
                let passed = switch check {
                case .maskOneOf(let index, _): maskOneOf(index, choice)
                case .luhn: luhn(digits)
                case .length: lengthPasses.withUnsafeBufferPointer { $0[c &* masks &+ m] }
                }
                if !passed { return false }
            }
            return true
        }
    }

    /// Luhn over ASCII digits only (the formatted text's literals, which Luhn skips, are not
    /// there), two digits a step from the right: ``luhnPairs`` gives a doubled digit and the
    /// kept digit after it their sum at once.
    @inline(__always)
    func luhn(_ digits: Bytes) -> Bool {
        var sum = 0
        var i = digits.count &- 1
        luhnPairs.withUnsafeBufferPointer { pairs in
            while i >= 1 {
                let doubled = Int(digits[i &- 1] &- 0x30), kept = Int(digits[i] &- 0x30)
                sum &+= Int(pairs[doubled &<< 4 | kept])
                i &-= 2
            }
        }
        if i == 0 { sum &+= Int(digits[0] &- 0x30) }
        return sum % 10 == 0
    }

    /// `luhnPairs[d << 4 | k]`: the doubled digit d's Luhn value (2d, less 9 when over 9) plus
    /// the kept digit k. Per plan rather than `static`: a static is reached through a
    /// once-check per call.
    private let luhnPairs: [UInt8] = (0..<160).map { index in
        let d = index >> 4, k = index & 15
        return UInt8(truncatingIfNeeded: (d * 2 > 9 ? d * 2 - 9 : d * 2) + k)
    }
}
