/// A closed range of Unicode scalar values, `lo...hi`.
struct ScalarRange: Hashable, Sendable {
    var lo: UInt32
    var hi: UInt32

    init(_ lo: UInt32, _ hi: UInt32) {
        self.lo = lo
        self.hi = hi
    }
}

/// A set of Unicode scalars: sorted, disjoint, non-adjacent closed ranges of scalar values.
///
/// Surrogates (U+D800–U+DFFF) are never members: they are not scalars, no value holds them, and
/// an exported automaton must not accept them (a JavaScript string can hold a lone surrogate).
/// So the complement of a set is taken within the scalars, and `all` is two ranges.
struct ScalarSet: Hashable, Sendable {
    private(set) var ranges: [ScalarRange]

    static let maxScalar: UInt32 = 0x10FFFF
    static let surrogates = ScalarRange(0xD800, 0xDFFF)

    static let empty = ScalarSet(normalized: [])
    static let all = ScalarSet(normalized: [ScalarRange(0, 0xD7FF), ScalarRange(0xE000, maxScalar)])

    private init(normalized: [ScalarRange]) { ranges = normalized }

    /// The set of the scalars in `ranges`, which may overlap, touch, come in any order or
    /// cover surrogates (which are left out).
    init(_ ranges: [ScalarRange]) {
        var sorted = ranges.sorted { $0.lo < $1.lo }
        var merged: [ScalarRange] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted where range.lo <= range.hi {
            if let last = merged.last, range.lo <= last.hi &+ 1 {
                merged[merged.count - 1].hi = max(last.hi, range.hi)
            } else {
                merged.append(range)
            }
        }
        sorted.removeAll()
        // Cut the surrogates out; merging never joins across them, since both sides of the gap
        // are then separated by 0x800 values.
        for range in merged {
            if range.hi < Self.surrogates.lo || range.lo > Self.surrogates.hi {
                sorted.append(range)
                continue
            }
            if range.lo < Self.surrogates.lo { sorted.append(ScalarRange(range.lo, Self.surrogates.lo - 1)) }
            if range.hi > Self.surrogates.hi { sorted.append(ScalarRange(Self.surrogates.hi + 1, range.hi)) }
        }
        self.ranges = sorted
    }

    /// The set of `ranges`, which come in ascending order, none overlapping another (runs of a
    /// table): adjacent ones are joined and surrogates cut out, in one pass.
    init(ascending ranges: [ScalarRange]) {
        var result: [ScalarRange] = []
        result.reserveCapacity(ranges.count)
        func append(_ range: ScalarRange) {
            if let last = result.last, last.hi &+ 1 == range.lo {
                result[result.count - 1].hi = range.hi
            } else {
                result.append(range)
            }
        }
        for range in ranges {
            if range.hi < Self.surrogates.lo || range.lo > Self.surrogates.hi {
                append(range)
                continue
            }
            if range.lo < Self.surrogates.lo { append(ScalarRange(range.lo, Self.surrogates.lo - 1)) }
            if range.hi > Self.surrogates.hi { append(ScalarRange(Self.surrogates.hi + 1, range.hi)) }
        }
        self.init(normalized: result)
    }

    /// One scalar (none, for a surrogate).
    init(scalar: UInt32) {
        self.init(normalized: Self.surrogates.lo <= scalar && scalar <= Self.surrogates.hi ? [] : [ScalarRange(scalar, scalar)])
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// How many scalars the set holds.
    var count: Int { ranges.reduce(0) { $0 + Int($1.hi - $1.lo) + 1 } }

    func contains(_ value: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].hi < value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].lo <= value
    }

    func union(_ other: ScalarSet) -> ScalarSet {
        if other.isEmpty { return self }
        if isEmpty { return other }
        return ScalarSet(ranges + other.ranges)
    }

    /// Every scalar that is not in the set.
    var complement: ScalarSet {
        var gaps: [ScalarRange] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lo > next { gaps.append(ScalarRange(next, range.lo - 1)) }
            next = range.hi &+ 1
        }
        if next <= Self.maxScalar { gaps.append(ScalarRange(next, Self.maxScalar)) }
        return ScalarSet(gaps)
    }

    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result: [ScalarRange] = []
        var i = 0, j = 0
        while i < ranges.count && j < other.ranges.count {
            let a = ranges[i], b = other.ranges[j]
            let lo = max(a.lo, b.lo), hi = min(a.hi, b.hi)
            if lo <= hi { result.append(ScalarRange(lo, hi)) }
            if a.hi < b.hi { i += 1 } else { j += 1 }
        }
        return ScalarSet(normalized: result)
    }

    func subtracting(_ other: ScalarSet) -> ScalarSet { intersection(other.complement) }
}
