// Exact decimal arithmetic on digit strings. Numbers are never converted to Double:
// `0.30000000000000004` is not `0.3`, and a megabyte of digits costs linear time.

/// A number in its parts: sign, integer digits without leading zeros and fraction digits
/// without trailing zeros (zero has both empty). Digits are ASCII bytes.
struct DecimalParts {
    var negative: Bool
    var integer: Bytes
    var fraction: Bytes

    /// Parses `-?[0-9]+(\.[0-9]+)?` (ASCII digits only) without copying, with `separator`
    /// (a type's `decimal-separator`) for the point.
    @inline(__always)
    init?(_ b: Bytes, separator: UInt8 = UInt8(ascii: ".")) {
        var i = 0
        negative = b.count > 0 && b[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let intStart = i
        while i < b.count && b[i].isASCIIDigit { i += 1 }
        let intEnd = i
        guard intEnd > intStart else { return nil }
        var fracStart = i, fracEnd = i
        if i < b.count {
            guard b[i] == separator else { return nil }
            i += 1
            fracStart = i
            while i < b.count && b[i].isASCIIDigit { i += 1 }
            fracEnd = i
            guard i == b.count, fracEnd > fracStart else { return nil }
        }
        var s = intStart
        while s < intEnd && b[s] == UInt8(ascii: "0") { s += 1 }
        var e = fracEnd
        while e > fracStart && b[e - 1] == UInt8(ascii: "0") { e -= 1 }
        integer = UnsafeBufferPointer(rebasing: b[s..<intEnd])
        fraction = UnsafeBufferPointer(rebasing: b[fracStart..<e])
    }

    init(negative: Bool, integer: Bytes, fraction: Bytes) {
        self.negative = negative
        self.integer = integer
        self.fraction = fraction
    }

    var isZero: Bool { integer.isEmpty && fraction.isEmpty }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`.
    @inline(__always)
    static func compare(_ a: DecimalParts, _ b: DecimalParts) -> Int {
        let sa = a.isZero ? 0 : (a.negative ? -1 : 1)
        let sb = b.isZero ? 0 : (b.negative ? -1 : 1)
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        let m = compareMagnitude(a, b)
        return sa > 0 ? m : -m
    }

    @inline(__always)
    static func compareMagnitude(_ a: DecimalParts, _ b: DecimalParts) -> Int {
        if a.integer.count != b.integer.count { return a.integer.count < b.integer.count ? -1 : 1 }
        for k in 0..<a.integer.count where a.integer[k] != b.integer[k] {
            return a.integer[k] < b.integer[k] ? -1 : 1
        }
        let n = min(a.fraction.count, b.fraction.count)
        for k in 0..<n where a.fraction[k] != b.fraction[k] {
            return a.fraction[k] < b.fraction[k] ? -1 : 1
        }
        if a.fraction.count != b.fraction.count { return a.fraction.count < b.fraction.count ? -1 : 1 }
        return 0
    }
}

/// A decimal constant (a range bound) kept for the life of a compiled type.
final class DecimalConstant: @unchecked Sendable {
    let text: String
    private let storage: UnsafeMutableBufferPointer<UInt8>
    let parts: DecimalParts

    /// Parses a decimal spelling; nil when `text` is not `-?[0-9]+(\.[0-9]+)?`.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bytes.count))
        _ = storage.initialize(from: bytes)
        guard let parts = DecimalParts(UnsafeBufferPointer(rebasing: storage[0..<bytes.count])) else {
            storage.deallocate()
            return nil
        }
        self.text = text
        self.storage = storage
        self.parts = parts
    }

    deinit { storage.deallocate() }
}

/// An owned number used while reasoning about completions of a live prefix.
struct OwnedDecimal {
    var negative = false
    var integer: [UInt8] = []   // may have leading zeros
    var fraction: [UInt8] = []  // may have trailing zeros

    func withParts<R>(_ body: (DecimalParts) -> R) -> R {
        integer.withUnsafeBufferPointer { i in
            fraction.withUnsafeBufferPointer { f in
                var s = 0
                while s < i.count && i[s] == UInt8(ascii: "0") { s += 1 }
                var e = f.count
                while e > 0 && f[e - 1] == UInt8(ascii: "0") { e -= 1 }
                return body(DecimalParts(negative: negative,
                                         integer: UnsafeBufferPointer(rebasing: i[s...]),
                                         fraction: UnsafeBufferPointer(rebasing: f[..<e])))
            }
        }
    }

    /// -1, 0 or 1 comparing with a constant.
    func compare(to c: DecimalConstant) -> Int {
        withParts { DecimalParts.compare($0, c.parts) }
    }

    /// Adds one unit in the last place of `digits` (integer digits then `fractionDigits`
    /// fraction digits), keeping `fractionDigits` fraction digits.
    static func incremented(_ digits: [UInt8], fractionDigits: Int) -> OwnedDecimal {
        var d = digits
        var k = d.count - 1
        while k >= 0 {
            if d[k] == UInt8(ascii: "9") { d[k] = UInt8(ascii: "0"); k -= 1 } else { d[k] += 1; break }
        }
        if k < 0 { d.insert(UInt8(ascii: "1"), at: 0) }
        let split = d.count - fractionDigits
        return OwnedDecimal(negative: false, integer: Array(d[..<split]), fraction: Array(d[split...]))
    }
}
