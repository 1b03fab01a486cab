// Byte-level helpers. The engine works on the UTF-8 bytes of a value (Swift strings are
// always well-formed UTF-8), with ASCII fast paths and a scalar decoder for the rest.

typealias Bytes = UnsafeBufferPointer<UInt8>

extension UInt8 {
    @inline(__always) var isASCIIDigit: Bool { self &- 0x30 < 10 }
    @inline(__always) var isASCIILetter: Bool { (self | 0x20) &- 0x61 < 26 }
    /// ASCII white space as Unicode's White_Space property has it: tab, LF, VT, FF, CR, space.
    @inline(__always) var isASCIIWhiteSpace: Bool { self == 0x20 || (self >= 0x09 && self <= 0x0D) }
}

/// Decodes the scalar starting at `i` of well-formed UTF-8 and returns it with its length.
@inline(__always)
func decodeScalar(_ b: Bytes, at i: Int) -> (scalar: Unicode.Scalar, length: Int) {
    let b0 = b[i]
    if b0 < 0x80 { return (Unicode.Scalar(b0), 1) }
    var value: UInt32
    let n: Int
    if b0 < 0xE0 { value = UInt32(b0 & 0x1F); n = 2 }
    else if b0 < 0xF0 { value = UInt32(b0 & 0x0F); n = 3 }
    else { value = UInt32(b0 & 0x07); n = 4 }
    var k = 1
    while k < n && i + k < b.count {
        value = value << 6 | UInt32(b[i + k] & 0x3F)
        k += 1
    }
    return (Unicode.Scalar(value) ?? "\u{FFFD}", k)
}

/// The number of bytes of the scalar that starts with `b0`.
@inline(__always)
func scalarLength(leadByte b0: UInt8) -> Int {
    b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4
}

/// Unicode's White_Space property. The set is small and stable (unchanged since Unicode 6.3),
/// so it is spelled out: asking the standard library's property tables cost a lookup per
/// non-ASCII scalar on the batch hot path.
@inline(__always)
func isWhiteSpace(_ s: Unicode.Scalar) -> Bool {
    let v = s.value
    if v < 0x80 { return UInt8(v).isASCIIWhiteSpace }
    if v < 0x1680 { return v == 0x85 || v == 0xA0 }
    return v == 0x1680 || (v >= 0x2000 && v <= 0x200A) || v == 0x2028 || v == 0x2029
        || v == 0x202F || v == 0x205F || v == 0x3000
}

/// General category L.
func isLetter(_ s: Unicode.Scalar) -> Bool {
    if s.value < 0x80 { return UInt8(s.value).isASCIILetter }
    return ScalarFlags.of(s) & ScalarFlags.letter != 0
}

/// General category P.
func isPunctuation(_ s: Unicode.Scalar) -> Bool {
    ScalarFlags.of(s) & ScalarFlags.punctuation != 0
}

/// General category P (punctuation) for an ASCII byte: `!"#%&'()*,-./:;?@[\]_{}`
/// (`$+<=>^`|~` are symbols). Spelled out as two bitmaps so the hot path needs no table.
@inline(__always)
func isASCIIPunctuation(_ c: UInt8) -> Bool {
    let low: UInt64 = 1 << 33 | 1 << 34 | 1 << 35 | 1 << 37 | 1 << 38 | 1 << 39 | 1 << 40 | 1 << 41
        | 1 << 42 | 1 << 44 | 1 << 45 | 1 << 46 | 1 << 47 | 1 << 58 | 1 << 59 | 1 << 63
    let high: UInt64 = 1 << (64 - 64) | 1 << (91 - 64) | 1 << (92 - 64) | 1 << (93 - 64) | 1 << (95 - 64)
        | 1 << (123 - 64) | 1 << (125 - 64)
    return c < 64 ? low & (1 << UInt64(c)) != 0 : c < 128 && high & (1 << UInt64(c &- 64)) != 0
}

/// The general-category classes the engine asks about, precomputed for the scalars of one-
/// and two-byte UTF-8 (U+0000–U+07FF: Latin, Greek, Cyrillic, Hebrew, Arabic…), which most
/// values are made of; other scalars ask the standard library.
enum ScalarFlags {
    static let letter: UInt8 = 1, mark: UInt8 = 2, punctuation: UInt8 = 4, spaceSeparator: UInt8 = 8
    static let tableLimit: UInt32 = 0x800

    // Written once, when first used, then only read.
    nonisolated(unsafe) private static let table: UnsafeMutablePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(tableLimit))
        for v in 0..<tableLimit { table[Int(v)] = compute(Unicode.Scalar(v)!) }
        return table
    }()

    /// The flags of any scalar.
    @inline(__always)
    static func of(_ s: Unicode.Scalar) -> UInt8 { s.value < tableLimit ? table[Int(s.value)] : compute(s) }

    // Never inlined: `Unicode.Scalar.Properties` is a resilient type, and asking for it
    // inside a hot function made that function fetch its metadata and size a stack slot on
    // every call, used or not.
    @inline(never)
    static func compute(_ s: Unicode.Scalar) -> UInt8 {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return letter
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return mark
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return punctuation
        case .spaceSeparator:
            return spaceSeparator
        default:
            return 0
        }
    }
}

/// True when the value is empty or only white space: an absent value.
func isBlank(_ b: Bytes) -> Bool {
    var i = 0
    while i < b.count {
        let c = b[i]
        if c < 0x80 {
            guard c.isASCIIWhiteSpace else { return false }
            i += 1
        } else {
            let (s, n) = decodeScalar(b, at: i)
            guard isWhiteSpace(s) else { return false }
            i += n
        }
    }
    return true
}

func isAllASCII(_ b: Bytes) -> Bool {
    for c in b where c >= 0x80 { return false }
    return true
}

func bytesEqual(_ a: Bytes, _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<a.count where a[i] != b[i] { return false }
    return true
}

func makeString(_ b: Bytes) -> String {
    String(decoding: b, as: UTF8.self)
}
