/// Finds the first byte of `bytes[range]` that does not start a well-formed UTF-8 sequence
/// (overlong forms, surrogates and scalars above U+10FFFF are ill-formed), or nil.
func firstInvalidUTF8Offset(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
        let b0 = bytes[i]
        if b0 < 0x80 { i += 1; continue }
        let count: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF   // allowed range of the second byte
        switch b0 {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: return i
        }
        guard i + count <= end else { return i }
        guard bytes[i + 1] >= low, bytes[i + 1] <= high else { return i }
        for k in 2..<count where bytes[i + k] & 0xC0 != 0x80 { return i }
        i += count
    }
    return nil
}
