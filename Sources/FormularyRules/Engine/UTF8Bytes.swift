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

@inline(__always)
func isWhiteSpace(_ s: Unicode.Scalar) -> Bool {
    s.value < 0x80 ? UInt8(s.value).isASCIIWhiteSpace : s.properties.isWhitespace
}

func isLetter(_ s: Unicode.Scalar) -> Bool {
    if s.value < 0x80 { return UInt8(s.value).isASCIILetter }
    switch s.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
        return true
    default:
        return false
    }
}

func isMark(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
}

func isPunctuation(_ s: Unicode.Scalar) -> Bool {
    switch s.properties.generalCategory {
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
         .initialPunctuation, .finalPunctuation, .otherPunctuation:
        return true
    default:
        return false
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
            guard s.properties.isWhitespace else { return false }
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
