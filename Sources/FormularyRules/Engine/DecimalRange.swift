/// A resolved `range RANGE`: exact decimal bounds, each optional.
struct DecimalRange: Sendable {
    var lower: DecimalConstant?
    var lowerExclusive: Bool
    var upper: DecimalConstant?
    var upperInclusive: Bool

    /// True when no number lies in the range.
    var isEmpty: Bool {
        guard let lower, let upper else { return false }
        let c = DecimalParts.compare(lower.parts, upper.parts)
        return c > 0 || (c == 0 && (lowerExclusive || !upperInclusive))
    }

    @inline(__always)
    func contains(_ v: DecimalParts) -> Bool {
        if let lower {
            let c = DecimalParts.compare(v, lower.parts)
            if c < 0 || (c == 0 && lowerExclusive) { return false }
        }
        if let upper {
            let c = DecimalParts.compare(v, upper.parts)
            if c > 0 || (c == 0 && !upperInclusive) { return false }
        }
        return true
    }

    /// The range of the negated numbers: x ∈ mirrored ⟺ −x ∈ self.
    private var mirrored: MirrorableRange {
        MirrorableRange(lower: upper.map { ($0, true) }, lowerExclusive: !upperInclusive,
                        upper: lower.map { ($0, true) }, upperInclusive: !lowerExclusive)
    }

    private var plain: MirrorableRange {
        MirrorableRange(lower: lower.map { ($0, false) }, lowerExclusive: lowerExclusive,
                        upper: upper.map { ($0, false) }, upperInclusive: upperInclusive)
    }

    /// Live stage: true unless no completion of the typed prefix can be a number in range.
    ///
    /// Completions of an integer-part prefix `v` are the union over k ≥ 0 of
    /// [v·10^k, (v+1)·10^k); a prefix with a fraction part `x` of n digits ("12." has
    /// n = 0) completes into [x, x + 10^-n). A leading `-` mirrors both the prefix and the
    /// range, so "-" alone stands for every number ≤ 0, and "" for every number. `separator`
    /// is the type's decimal separator.
    func liveAllows(_ b: Bytes, separator: UInt8) -> Bool {
        var i = 0
        let negative = b.count > 0 && b[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let intStart = i
        while i < b.count && b[i].isASCIIDigit { i += 1 }
        let integer = Array(b[intStart..<i])
        var fraction: [UInt8]? = nil
        if i < b.count {
            guard b[i] == separator, !integer.isEmpty else { return false }
            i += 1
            let fracStart = i
            while i < b.count && b[i].isASCIIDigit { i += 1 }
            guard i == b.count else { return false }
            fraction = Array(b[fracStart..<i])
        }
        if b.isEmpty { return true }
        let range = negative ? mirrored : plain
        guard let fraction else {
            return range.meetsIntegerPrefix(integer.isEmpty ? [UInt8(ascii: "0")] : integer)
        }
        let low = OwnedDecimal(negative: false, integer: integer, fraction: fraction)
        let high = OwnedDecimal.incremented(integer + fraction, fractionDigits: fraction.count)
        return range.meets(low: low, high: high)
    }
}

/// A decimal range whose bounds may be negated, for reasoning about non-negative
/// completions [low, high).
private struct MirrorableRange {
    /// The constant and whether it stands negated.
    var lower: (DecimalConstant, Bool)?
    var lowerExclusive: Bool
    var upper: (DecimalConstant, Bool)?
    var upperInclusive: Bool

    private func compare(_ x: OwnedDecimal, _ bound: (DecimalConstant, Bool)) -> Int {
        x.withParts { parts in
            var c = bound.0.parts
            if bound.1 { c.negative.toggle() }
            return DecimalParts.compare(parts, c)
        }
    }

    /// [low, high) meets the range (high nil: unbounded).
    func meets(low: OwnedDecimal, high: OwnedDecimal?) -> Bool {
        if let upper {
            let c = compare(low, upper)
            if c > 0 || (c == 0 && !upperInclusive) { return false }
        }
        if let lower, let high {
            if compare(high, lower) <= 0 { return false }
        }
        return true
    }

    /// Some k ≥ 0 makes [v·10^k, (v+1)·10^k) meet the range.
    func meetsIntegerPrefix(_ v: [UInt8]) -> Bool {
        var s = 0
        while s < v.count && v[s] == UInt8(ascii: "0") { s += 1 }
        let digits = Array(v[s...])
        if digits.isEmpty {
            // Every non-negative number.
            return meets(low: OwnedDecimal(), high: nil)
        }
        let next = OwnedDecimal.incremented(digits, fractionDigits: 0).integer
        // The smallest k with (v+1)·10^k above the lower bound: the upper ends grow with k
        // while the lower ends do too, so that k gives the best chance below the upper bound.
        var k = 0
        if let lower {
            if compare(OwnedDecimal(integer: next), lower) <= 0 {
                var l = lower.0.parts
                if lower.1 { l.negative.toggle() }
                k = max(0, l.integer.count - next.count)
                let zeros = [UInt8](repeating: UInt8(ascii: "0"), count: k)
                if compare(OwnedDecimal(integer: next + zeros), lower) <= 0 { k += 1 }
            }
        }
        let zeros = [UInt8](repeating: UInt8(ascii: "0"), count: k)
        return meets(low: OwnedDecimal(integer: digits + zeros),
                     high: OwnedDecimal(integer: next + zeros))
    }
}
