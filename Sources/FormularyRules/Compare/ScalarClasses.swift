/// A partition of the Unicode scalars into classes that every automaton of a comparison
/// treats alike: two scalars of one class lead every state of every check, mask and
/// normalization step to the same place. A comparison then walks a few dozen classes per
/// state instead of a million scalars (or thousands of ranges), and a witness takes one
/// readable scalar of each class it goes through.
///
/// Kept as intervals: `starts[k] ..< starts[k + 1]` (the last one runs to U+10FFFF) is in
/// class `ids[k]`; the surrogates, which are no scalars, are the interval of class -1.
struct ScalarClasses {
    private(set) var starts: [UInt32]
    private(set) var ids: [Int32]
    /// How many classes there are (ids 0 ..< count).
    private(set) var count: Int
    /// Per class, its ranges in ascending order.
    private(set) var ranges: [[ScalarRange]]
    /// Per class, its most readable scalar (see ``ScalarClasses/rank(_:)``).
    private(set) var representatives: [UInt32]

    /// Classes from intervals: `starts` ascending from 0, `keys[k]` the identity of interval
    /// k's class (equal keys, one class); the surrogates' interval must be its own, keyed nil.
    init<Key: Hashable>(starts: [UInt32], keys: [Key?]) {
        var index: [Key: Int32] = [:]
        var ids: [Int32] = []
        var mergedStarts: [UInt32] = []
        ids.reserveCapacity(starts.count)
        for (k, key) in keys.enumerated() {
            let id: Int32
            if let key {
                if let known = index[key] { id = known } else {
                    id = Int32(index.count)
                    index[key] = id
                }
            } else {
                id = -1
            }
            // Neighbouring intervals of one class are one interval.
            if ids.last == id { continue }
            ids.append(id)
            mergedStarts.append(starts[k])
        }
        self.starts = mergedStarts
        self.ids = ids
        count = index.count
        var ranges = [[ScalarRange]](repeating: [], count: index.count)
        for k in 0..<ids.count where ids[k] >= 0 {
            let end = k + 1 < mergedStarts.count ? mergedStarts[k + 1] - 1 : ScalarSet.maxScalar
            ranges[Int(ids[k])].append(ScalarRange(mergedStarts[k], end))
        }
        self.ranges = ranges
        representatives = ranges.map { Self.alternatives(in: $0, limit: 1).first ?? $0[0].lo }
    }

    /// The class of `scalar` (-1 for a surrogate).
    func id(of scalar: UInt32) -> Int32 {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= scalar { low = middle + 1 } else { high = middle }
        }
        return ids[low - 1]
    }

    // MARK: - Readable scalars

    /// How readable a scalar is in a witness, lower first: ASCII lower-case letters, digits,
    /// upper-case letters, ASCII punctuation and symbols, the space, other visible scalars
    /// (letters, numbers, punctuation and symbols), then the rest (controls, marks alone,
    /// format characters, unassigned).
    static func rank(_ s: UInt32) -> Int {
        switch s {
        case 0x61...0x7A: 0
        case 0x30...0x39: 1
        case 0x41...0x5A: 2
        case 0x21...0x7E: 3
        case 0x20: 4
        default: s >= 0xA0 && visible.contains(s) ? 5 : 6
        }
    }

    /// Letters, numbers, punctuation and symbols: what reads as a character on its own.
    static let visible: ScalarSet = UnicodeTables.categories([.lu, .ll, .lt, .lm, .lo, .nd, .nl, .no, .pc, .pd,
                                                              .ps, .pe, .pi, .pf, .po, .sm, .sc, .sk, .so])

    /// How many scalars of each rank a class offers when witnesses are searched among
    /// several candidates: every ASCII digit (a check digit may need any of them), a few
    /// letters, one of the rest.
    private static let quota = [3, 10, 2, 2, 1, 1, 1]

    /// Up to `limit` scalars of `ranges`, most readable first, with at most ``quota`` of
    /// each rank.
    static func alternatives(in ranges: [ScalarRange], limit: Int) -> [UInt32] {
        let bands: [[ScalarRange]] = [
            [ScalarRange(0x61, 0x7A)], [ScalarRange(0x30, 0x39)], [ScalarRange(0x41, 0x5A)],
            [ScalarRange(0x21, 0x2F), ScalarRange(0x3A, 0x40), ScalarRange(0x5B, 0x60), ScalarRange(0x7B, 0x7E)],
            [ScalarRange(0x20, 0x20)],
        ]
        var found: [UInt32] = []
        for (rank, band) in bands.enumerated() {
            var taken = 0
            for b in band {
                for r in ranges where r.lo <= b.hi && b.lo <= r.hi {
                    var s = max(r.lo, b.lo)
                    while s <= min(r.hi, b.hi) && taken < quota[rank] {
                        found.append(s)
                        taken += 1
                        s += 1
                    }
                }
            }
            if found.count >= limit { return Array(found.prefix(limit)) }
        }
        // Visible scalars above ASCII, then anything at all.
        let set = ScalarSet(ranges)
        let wide = set.intersection(ScalarSet([ScalarRange(0xA0, ScalarSet.maxScalar)]))
        if let v = wide.intersection(visible).ranges.first?.lo { found.append(v) }
        if found.count >= limit { return Array(found.prefix(limit)) }
        if let other = set.subtracting(visible).subtracting(ScalarSet([ScalarRange(0x20, 0x7E)])).ranges.first?.lo {
            found.append(other)
        }
        return Array(found.prefix(limit))
    }
}

/// Collects what the classes must tell apart, then makes them: each contribution is a
/// range of scalars and a tag; scalars end up in one class exactly when the same tags
/// cover them. An automaton state contributes each edge tagged with (state, target), so
/// that a class never straddles two edges of a state or an edge and a gap.
///
/// The tags covering an interval are summed as two 64-bit hashes (a prefix sum over the
/// intervals), which tells different sets of tags apart with a probability of error far
/// below 2⁻¹⁰⁰; the tags come from a fixed mixing function, so the classes are the same on
/// every run.
struct ScalarClassBuilder {
    private var events: [(at: UInt32, h1: UInt64, h2: UInt64)] = []

    /// Scalars of `lo...hi` carry the tag made of `a`, `b` and `c`.
    mutating func add(_ lo: UInt32, _ hi: UInt32, tag a: Int, _ b: Int = 0, _ c: Int = 0) {
        guard lo <= hi else { return }
        let (h1, h2) = Self.hash(a, b, c)
        events.append((lo, h1, h2))
        if hi < ScalarSet.maxScalar { events.append((hi + 1, 0 &- h1, 0 &- h2)) }
    }

    /// The scalars of `set` carry a tag of their own.
    mutating func add(_ set: ScalarSet, tag: Int) {
        for r in set.ranges { add(r.lo, r.hi, tag: tag, -1) }
    }

    /// Every edge of every state of an automaton (`component` tells automata apart).
    mutating func add(edges: [[Edge]], component: Int) {
        for (state, list) in edges.enumerated() {
            for e in list { add(e.lo, e.hi, tag: component, state, Int(e.target)) }
        }
    }

    /// The classes.
    func build() -> ScalarClasses {
        var points: [UInt32] = [0, ScalarSet.surrogates.lo, ScalarSet.surrogates.hi + 1]
        for e in events { points.append(e.at) }
        points.sort()
        points = points.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        var add1 = [UInt64](repeating: 0, count: points.count), add2 = add1
        for e in events {
            let k = Self.index(of: e.at, in: points)
            add1[k] &+= e.h1
            add2[k] &+= e.h2
        }
        var keys: [Pair?] = []
        var h1: UInt64 = 0, h2: UInt64 = 0
        for k in 0..<points.count {
            h1 &+= add1[k]
            h2 &+= add2[k]
            keys.append(points[k] == ScalarSet.surrogates.lo ? nil : Pair(h1: h1, h2: h2))
        }
        return ScalarClasses(starts: points, keys: keys)
    }

    private struct Pair: Hashable { var h1: UInt64; var h2: UInt64 }

    static func index(of point: UInt32, in points: [UInt32]) -> Int {
        var low = 0, high = points.count
        while low < high {
            let middle = (low + high) / 2
            if points[middle] < point { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// SplitMix64's finalizer over the three numbers, twice with different seeds.
    private static func hash(_ a: Int, _ b: Int, _ c: Int) -> (UInt64, UInt64) {
        func mix(_ x: UInt64) -> UInt64 {
            var z = x &+ 0x9E37_79B9_7F4A_7C15
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let x = mix(mix(mix(UInt64(bitPattern: Int64(a))) ^ UInt64(bitPattern: Int64(b))) ^ UInt64(bitPattern: Int64(c)))
        return (x, mix(x ^ 0x5851_F42D_4C95_7F2D))
    }
}

extension ScalarClasses {
    /// The common refinement of `partitions`: scalars share a class when they share one in
    /// each.
    static func meet(_ partitions: [ScalarClasses]) -> ScalarClasses {
        var points: [UInt32] = []
        for p in partitions { points += p.starts }
        points.sort()
        points = points.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        let keys: [[Int32]?] = points.map { point in
            let key = partitions.map { $0.id(of: point) }
            return key.first == -1 ? nil : key
        }
        return ScalarClasses(starts: points, keys: keys)
    }

    /// New classes from these: the scalars are cut at `extraPoints` too, and each interval
    /// (by its first scalar) gets the class `key` names; nil keys only for the surrogates.
    func refined<Key: Hashable>(cuttingAt extraPoints: [UInt32], key: (UInt32, Int32) -> Key) -> ScalarClasses {
        var points = starts + extraPoints + [ScalarSet.surrogates.lo, ScalarSet.surrogates.hi + 1]
        points.sort()
        points = points.reduce(into: []) { if $0.last != $1 { $0.append($1) } }
        let keys: [Key?] = points.map { point in
            let id = self.id(of: point)
            return id < 0 ? nil : key(point, id)
        }
        return ScalarClasses(starts: points, keys: keys)
    }
}
