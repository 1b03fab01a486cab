/// The language of each regular check, as an automaton over the text the check reads (the
/// normalized, formatted value): the strings it passes, exactly as `CompiledCheck.evaluate`
/// decides in the final stage.
enum CheckLanguage {
    /// The most states a check's own automaton may have (a `length ...N` has N + 1).
    static let stateCap = 200_000

    /// `length` in `unit`, `lower...upper` (closed; `upper` nil: unbounded), for the units
    /// that count scalars or their code units: an exact count.
    static func length(lower: Int, upper: Int?, unit: LengthUnit) throws(TooComplex) -> RangeAutomaton {
        let top = upper ?? lower
        guard top < stateCap else { throw TooComplex() }
        func count(_ n: Int, _ width: Int) -> Int? {
            let m = n + width
            if let upper { return m <= upper ? m : nil }
            return min(m, lower)
        }
        let widths: [(UInt32, UInt32, Int)] = switch unit {
        case .bytes: [(0, 0x7F, 1), (0x80, 0x7FF, 2), (0x800, 0xFFFF, 3), (0x10000, ScalarSet.maxScalar, 4)]
        case .utf16: [(0, 0xFFFF, 1), (0x10000, ScalarSet.maxScalar, 2)]
        case .scalars, .graphemes: [(0, ScalarSet.maxScalar, 1)]
        }
        var edges: [[Edge]] = []
        for n in 0...top {
            edges.append(widths.compactMap { lo, hi, w in count(n, w).map { Edge(lo: lo, hi: hi, target: Int32($0)) } })
        }
        return RangeAutomaton(start: [0], edges: edges, accepting: (0...top).map { $0 >= lower })
    }

    /// The scalars below which every scalar is a grapheme of its own, but a line feed after
    /// a carriage return (no scalar there joins a cluster: what `Length.count` relies on).
    static let simpleLimit: UInt32 = 0x300

    /// `length … graphemes`, which no automaton counts in general, bounded from either
    /// side. Over text of scalars below U+0300 the count is exact: each scalar is one
    /// grapheme, except a line feed after a carriage return. `under` accepts only such text
    /// (so every string it accepts passes the check); otherwise any text with another
    /// scalar is accepted too (every string the check passes is accepted).
    static func graphemeLength(lower: Int, upper: Int?, under: Bool) throws(TooComplex) -> RangeAutomaton {
        let top = upper ?? lower
        guard top < stateCap else { throw TooComplex() }
        // States 2n (+1 after a carriage return) for n counted; then `over` (more than
        // `upper`, only for an over-approximation) and `free` (a scalar from U+0300 read).
        let over = Int32(2 * top + 2), free = over + 1
        let bands: [(UInt32, UInt32, UInt32?)] = [(0, 0x09, nil), (0x0A, 0x0A, 0x0A), (0x0B, 0x0C, nil),
                                                   (0x0D, 0x0D, 0x0D), (0x0E, simpleLimit - 1, nil)]
        var edges: [[Edge]] = []
        var accepting: [Bool] = []
        let escape = Edge(lo: simpleLimit, hi: ScalarSet.maxScalar, target: free)
        for state in 0..<(2 * top + 2) {
            let n = state / 2, afterCR = state % 2 == 1
            var list: [Edge] = []
            for (lo, hi, special) in bands {
                var m = n + 1
                if special == 0x0A && afterCR { m = n }
                if upper == nil { m = min(m, lower) }
                if let upper, m > upper {
                    if !under { list.append(Edge(lo: lo, hi: hi, target: over)) }
                    continue
                }
                list.append(Edge(lo: lo, hi: hi, target: Int32(2 * m + (special == 0x0D ? 1 : 0))))
            }
            if !under { list.append(escape) }
            edges.append(list)
            accepting.append(n >= lower)
        }
        edges.append(under ? [] : [Edge(lo: 0, hi: simpleLimit - 1, target: over), escape])
        accepting.append(false)
        edges.append(under ? [] : [Edge(lo: 0, hi: ScalarSet.maxScalar, target: free)])
        accepting.append(!under)
        return RangeAutomaton(start: [0], edges: edges, accepting: accepting).trimmed()
    }

    private static let digits = ScalarRange(0x30, 0x39)

    /// `integer`: `-?[0-9]+`.
    static func integer() -> RangeAutomaton {
        decimal(places: 0, separator: 0x2E)
    }

    /// `decimal [places N]`: `-?[0-9]+` and, unless `places` is 0, optionally the separator
    /// and 1 to N digits (any number without `places`).
    static func decimal(places: Int?, separator: UInt32) -> RangeAutomaton {
        // 0 start, 1 after '-', 2 whole digits, 3 after the separator, 3 + k after k
        // fraction digits (one looping state 4 without `places`).
        let d = digits
        var edges: [[Edge]] = [
            [Edge(lo: 0x2D, hi: 0x2D, target: 1), Edge(lo: d.lo, hi: d.hi, target: 2)],
            [Edge(lo: d.lo, hi: d.hi, target: 2)],
            [Edge(lo: d.lo, hi: d.hi, target: 2)],
        ]
        if places != 0 {
            // The separator (',' or '.') sorts before the digits.
            edges[2].insert(Edge(lo: separator, hi: separator, target: 3), at: 0)
            edges.append([Edge(lo: d.lo, hi: d.hi, target: 4)])
            if let places {
                for k in 1...places {
                    edges.append(k < places ? [Edge(lo: d.lo, hi: d.hi, target: Int32(4 + k))] : [])
                }
            } else {
                edges.append([Edge(lo: d.lo, hi: d.hi, target: 4)])
            }
        }
        let accepting = (0..<edges.count).map { $0 == 2 || $0 >= 4 }
        return RangeAutomaton(start: [0], edges: edges, accepting: accepting)
    }

    /// The scalars `charset` allows for each class, as `CharsetMatcher` reads them.
    static func scalars(of classes: [CharsetClass]) -> ScalarSet {
        var set = ScalarSet.empty
        let digitSet = ScalarSet([digits])
        let marks = UnicodeTables.categories([.mn, .mc, .me])
        for c in classes {
            switch c {
            case .digits: set = set.union(digitSet)
            case .letters: set = set.union(UnicodeTables.letters)
            case .marks: set = set.union(marks)
            case .spaces: set = set.union(UnicodeTables.categories([.zs])).union(ScalarSet(scalar: 0x09))
            case .punctuation: set = set.union(UnicodeTables.categories([.pc, .pd, .ps, .pe, .pi, .pf, .po]))
            case .alphanumerics: set = set.union(UnicodeTables.letters).union(marks).union(digitSet)
            case .literal(let text): set = set.union(ScalarSet(text.unicodeScalars.map { ScalarRange($0.value, $0.value) }))
            }
        }
        return set
    }

    /// `charset CLASS…`: every scalar in the classes (the empty string too).
    static func charset(_ classes: [CharsetClass]) -> RangeAutomaton {
        let edges = scalars(of: classes).ranges.map { Edge(lo: $0.lo, hi: $0.hi, target: 0) }
        return RangeAutomaton(start: [0], edges: [edges], accepting: [true])
    }

    /// `one-of`: exactly one of `options`; with `ignoreCase`, a value whose lower-casing is
    /// an option's (the value itself is not changed, as `OneOfMatcher` compares).
    static func oneOf(_ options: [String], ignoreCase: Bool) -> RangeAutomaton {
        // A trie of the options (lower-cased), then per node the scalars that lead on.
        var children: [[UInt32: Int32]] = [[:]]
        var accepting = [false]
        for option in options {
            let text = ignoreCase ? option.lowercased() : option
            var node: Int32 = 0
            for s in text.unicodeScalars {
                if let next = children[Int(node)][s.value] { node = next; continue }
                children.append([:])
                accepting.append(false)
                let next = Int32(children.count - 1)
                children[Int(node)][s.value] = next
                node = next
            }
            accepting[Int(node)] = true
        }
        let table = ignoreCase ? CaseMappings.lower : [:]
        var edges: [[Edge]] = []
        for node in children.indices {
            var moves: [(UInt32, Int32)] = []
            for (s, next) in children[node] where table[s] == nil { moves.append((s, next)) }
            if ignoreCase {
                // Scalars that lower-case into a path of the trie (`A` to `a`, `İ` to two).
                for (s, mapped) in table {
                    var at: Int32? = Int32(node)
                    for m in mapped { at = at.flatMap { children[Int($0)][m] } }
                    if let at { moves.append((s, at)) }
                }
            }
            moves.sort { $0.0 < $1.0 }
            var list: [Edge] = []
            for (s, next) in moves {
                if let last = list.last, last.target == next, last.hi + 1 == s { list[list.count - 1].hi = s }
                else { list.append(Edge(lo: s, hi: s, target: next)) }
            }
            edges.append(list)
        }
        return RangeAutomaton(start: [0], edges: edges, accepting: accepting).trimmed()
    }
}
