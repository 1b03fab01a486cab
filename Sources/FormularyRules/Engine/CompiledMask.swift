/// A compiled `mask "PATTERN"`.
///
/// Slots: `0` an ASCII digit, `A` a Unicode letter (general category L), `*` a letter or an
/// ASCII digit; `{LOW-HIGH}` a number group (as many digit slots as HIGH has digits, which
/// typing pads: ``NumberGroup``); `\x` is the literal `x`; every other character is a
/// literal. The mask works on Unicode scalars.
///
/// Formatting walks the mask and the value together, while value scalars remain:
/// - at a literal, a value scalar equal to it is kept (not doubled), otherwise the literal
///   is inserted;
/// - at a slot, a fitting scalar is placed; one that does not fit stops the layout and the
///   rest of the value is appended unchanged (the mask check then fails);
/// - when the mask is used up, the remaining scalars are appended unchanged.
/// Literals are not added after the last value scalar ("5" with `(000) 000-0000` formats to
/// "(5"), except that once every slot is filled the mask's trailing literals are completed
/// ("123" with `000)` formats to "123)"). Formatting never drops a character and is
/// idempotent.
// `@unchecked`: `asciiCodes` is written only in `init`, then read by any thread.
final class CompiledMask: @unchecked Sendable {
    enum Item: Sendable, Hashable {
        case digit, letter, alphanumeric
        case literal(Unicode.Scalar)
    }

    /// How a formatted value relates to the mask.
    enum Fit {
        /// Every item laid out and every value scalar used: passes the final check.
        case filled
        /// Everything laid out so far fits; more input could fill the mask.
        case partial
        /// A scalar did not fit its slot, or the value is longer than the mask.
        case broken
    }

    let pattern: String
    let items: [Item]
    /// UTF-8 bytes of all literals: the most formatting can add to a value.
    let literalBytes: Int
    /// Index of the first item after the last slot.
    let trailingLiteralsStart: Int
    /// `items` as one byte each when every literal is ASCII (nil otherwise): a slot is
    /// ``digitCode``, ``letterCode`` or ``alphanumericCode``, a literal is its own byte. The
    /// formatting loop then reads a plain buffer instead of enum payloads.
    private let asciiCodes: UnsafeMutableBufferPointer<UInt8>?
    private static let digitCode: UInt8 = 0x80, letterCode: UInt8 = 0x81, alphanumericCode: UInt8 = 0x82

    /// The number groups (`{01-12}`), in mask order: digit slots that typing pads.
    let numbers: [NumberGroup]

    /// Parses the pattern; nil when it ends in a lone `\`.
    init?(_ pattern: String) {
        self.pattern = pattern
        var items: [Item] = []
        var numbers: [NumberGroup] = []
        var escaped = false
        let scalars = Array(pattern.unicodeScalars)
        var k = 0
        while k < scalars.count {
            let s = scalars[k]
            k += 1
            if escaped { items.append(.literal(s)); escaped = false; continue }
            switch s {
            case "\\": escaped = true
            case "0": items.append(.digit)
            case "A": items.append(.letter)
            case "*": items.append(.alphanumeric)
            case "{":
                guard let (group, length) = NumberGroup.parse(scalars, at: k - 1, item: items.count) else {
                    items.append(.literal(s))
                    continue
                }
                numbers.append(group)
                items += [Item](repeating: .digit, count: group.width)
                k += length - 1
            default: items.append(.literal(s))
            }
        }
        guard !escaped else { return nil }
        self.items = items
        self.numbers = numbers
        var bytes = 0
        var lastSlot = -1
        for (index, item) in items.enumerated() {
            if case .literal(let s) = item { bytes += UTF8.width(s) } else { lastSlot = index }
        }
        literalBytes = bytes
        trailingLiteralsStart = lastSlot + 1
        let ascii = items.allSatisfy { if case .literal(let s) = $0 { s.isASCII } else { true } }
        if ascii {
            let codes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: items.count)
            for (k, item) in items.enumerated() {
                switch item {
                case .digit: codes[k] = Self.digitCode
                case .letter: codes[k] = Self.letterCode
                case .alphanumeric: codes[k] = Self.alphanumericCode
                case .literal(let s): codes[k] = UInt8(s.value)
                }
            }
            asciiCodes = codes
        } else {
            asciiCodes = nil
        }
        let slots = items.filter { if case .literal = $0 { false } else { true } }
        let onlyDigits = slots.allSatisfy { if case .digit = $0 { true } else { false } }
        let digitLiteral = items.contains { if case .literal(let s) = $0 { s.value &- 0x30 < 10 } else { false } }
        digitSlots = ascii && onlyDigits && !digitLiteral ? slots.count : 0
    }

    /// The number of slots when every slot is a digit and no literal is a digit (and all
    /// are ASCII), else 0: such a mask formats a value of exactly that many ASCII digits
    /// into itself, each slot taking the next digit (``formatASCII``'s walk, done without
    /// its per-item tests: a card number's or a phone number's mask).
    let digitSlots: Int

    deinit { asciiCodes?.deallocate() }

    /// The number of slots.
    var slotCount: Int { items.count { if case .literal = $0 { false } else { true } } }

    /// The mask as a person reads it: escapes removed, a number group shown as its digit
    /// slots (`{01-12}/00` reads `00/00`).
    var display: String {
        var text = ""
        for item in items {
            switch item {
            case .digit: text += "0"
            case .letter: text += "A"
            case .alphanumeric: text += "*"
            case .literal(let s): text.unicodeScalars.append(s)
            }
        }
        return text
    }

    @inline(__always)
    private func fits(_ item: Item, _ b: Bytes, at i: Int) -> (fits: Bool, length: Int) {
        let c = b[i]
        if c < 0x80 {
            switch item {
            case .digit: return (c.isASCIIDigit, 1)
            case .letter: return (c.isASCIILetter, 1)
            case .alphanumeric: return (c.isASCIIDigit || c.isASCIILetter, 1)
            case .literal: return (false, 1)
            }
        }
        let (s, n) = decodeScalar(b, at: i)
        switch item {
        case .digit, .literal: return (false, n)
        case .letter, .alphanumeric: return (isLetter(s), n)
        }
    }

    /// Formats `src` into scratch buffer `index` (not the one `src` lives in).
    func format(_ src: Bytes, scratch: Scratch, buffer index: Int) -> (Bytes, Fit) {
        if let asciiCodes { return formatASCII(src, codes: asciiCodes, scratch: scratch, buffer: index) }
        return formatByScalars(src, scratch: scratch, buffer: index)
    }

    /// ``format(_:scratch:buffer:)`` walking the items as scalars: for masks with non-ASCII
    /// literals, and the reference the ASCII path is tested against.
    func formatByScalars(_ src: Bytes, scratch: Scratch, buffer index: Int) -> (Bytes, Fit) {
        let dst = scratch.buffer(index, capacity: src.count + literalBytes)
        var count = 0, i = 0, m = 0
        var broken = false
        @inline(__always) func write(_ s: Unicode.Scalar) {
            if s.value < 0x80 { dst[count] = UInt8(s.value); count += 1; return }
            for byte in UTF8.encode(s)! { dst[count] = byte; count += 1 }
        }
        layout: while m < items.count && i < src.count {
            let item = items[m]
            if case .literal(let literal) = item {
                write(literal)
                let (s, n) = decodeScalar(src, at: i)
                if s == literal { i += n }
                m += 1
                continue
            }
            let (ok, n) = fits(item, src, at: i)
            guard ok else { broken = true; break layout }
            for k in 0..<n { dst[count + k] = src[i + k] }
            count += n
            i += n
            m += 1
        }
        if !broken && i == src.count && i > 0 && m >= trailingLiteralsStart {
            while m < items.count, case .literal(let literal) = items[m] {
                write(literal)
                m += 1
            }
        }
        let rest = src.count - i
        for k in 0..<rest { dst[count + k] = src[i + k] }
        count += rest
        let fit: Fit = broken || rest > 0 ? .broken : (m == items.count ? .filled : .partial)
        return (UnsafeBufferPointer(start: dst, count: count), fit)
    }

    /// ``format(_:scratch:buffer:)`` for a mask whose literals are all ASCII: the same walk
    /// over one byte per item. A non-ASCII value scalar never equals a literal and fits only a
    /// letter or alphanumeric slot.
    @inline(__always)
    private func formatASCII(_ src: Bytes, codes: UnsafeMutableBufferPointer<UInt8>, scratch: Scratch,
                             buffer index: Int) -> (Bytes, Fit) {
        let dst = scratch.buffer(index, capacity: src.count + literalBytes)
        let itemCount = codes.count
        if digitSlots > 0 && src.count == digitSlots {
            // Literals never equal a digit, so none consumes one; every slot takes the next
            // digit, and the literals after the last slot follow: the mask filled.
            var j = 0
            var digits = true
            for m in 0..<itemCount {
                let code = codes[m]
                if code < 0x80 {
                    dst[m] = code
                } else {
                    let c = src[j]
                    digits = digits && c &- 0x30 < 10
                    dst[m] = c
                    j &+= 1
                }
            }
            if digits { return (UnsafeBufferPointer(start: dst, count: itemCount), .filled) }
        }
        var count = 0, i = 0, m = 0
        var broken = false
        while m < itemCount && i < src.count {
            let code = codes[m]
            let c = src[i]
            if code < 0x80 {
                dst[count] = code
                count += 1
                if c == code { i += 1 }
                m += 1
                continue
            }
            let n: Int
            let ok: Bool
            if c < 0x80 {
                n = 1
                ok = code == Self.digitCode ? c.isASCIIDigit
                    : code == Self.letterCode ? c.isASCIILetter : c.isASCIIDigit || c.isASCIILetter
            } else {
                let (s, length) = decodeScalar(src, at: i)
                n = length
                ok = code != Self.digitCode && isLetter(s)
            }
            guard ok else { broken = true; break }
            for k in 0..<n { dst[count + k] = src[i + k] }
            count += n
            i += n
            m += 1
        }
        if !broken && i == src.count && i > 0 && m >= trailingLiteralsStart {
            while m < itemCount && codes[m] < 0x80 {
                dst[count] = codes[m]
                count += 1
                m += 1
            }
        }
        let rest = src.count - i
        for k in 0..<rest { dst[count + k] = src[i + k] }
        count += rest
        let fit: Fit = broken || rest > 0 ? .broken : (m == itemCount ? .filled : .partial)
        return (UnsafeBufferPointer(start: dst, count: count), fit)
    }
}
