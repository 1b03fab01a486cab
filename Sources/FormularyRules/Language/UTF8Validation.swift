/// The offset of the first byte of `b` that does not start a well-formed UTF-8 sequence
/// (overlong forms, surrogates and scalars above U+10FFFF are ill-formed), or nil. ASCII
/// runs are checked eight bytes at a time: batch validation calls it for every value.
@inline(__always)
func firstInvalidUTF8Offset(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = b.baseAddress else { return nil }
    let n = b.count
    var i = 0
    while i + 8 <= n {
        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
    }
    // An ASCII value's last bytes in one load, overlapping what was checked: a value's tail
    // one byte at a time was half of the check for e-mail addresses.
    if i + 8 > n && i < n {
        let raw = UnsafeRawPointer(base)
        if n >= 8 {
            if raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { return nil }
        } else if n >= 4 {
            let first = raw.loadUnaligned(as: UInt32.self), last = raw.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
            if (first | last) & 0x8080_8080 == 0 { return nil }
        }
    }
    while i < n {
        let b0 = base[i]
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
        guard i + count <= n, base[i + 1] >= low, base[i + 1] <= high else { return i }
        if count > 2 && base[i + 2] & 0xC0 != 0x80 { return i }
        if count > 3 && base[i + 3] & 0xC0 != 0x80 { return i }
        i += count
    }
    return nil
}

/// ``firstInvalidUTF8Offset(_:)`` of `bytes[range]`, as an index into `bytes`.
func firstInvalidUTF8Offset(_ bytes: [UInt8], in range: Range<Int>) -> Int? {
    bytes.withUnsafeBufferPointer { all in
        firstInvalidUTF8Offset(UnsafeBufferPointer(rebasing: all[range])).map { range.lowerBound + $0 }
    }
}

/// Whether `b` is well-formed UTF-8.
@inline(__always)
func isWellFormedUTF8(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    firstInvalidUTF8Offset(b) == nil
}
