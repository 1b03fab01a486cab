/// Character classes: `[…]` and `[^…]` with single characters, ranges `a-z` and the escapes
/// (`\d`, `\p{L}`, `\x{…}`…). `x` does not apply inside a class (as in PCRE2). Under `i`, the
/// characters and ranges written get their case variants; `\p{…}`, `\w`, `\s` and `\d` do not
/// (as in PCRE2: `\p{Lu}` stays upper-case letters).
extension PatternParser {
    mutating func characterClass() throws(PatternError) -> ScalarSet {
        let open = i
        i += 1
        let negated = peek == "^"
        if negated { i += 1 }
        if peek == "]" {
            throw PatternError(.emptyClass, at: open..<i + 1, replacing: i..<i + 1, with: "\\]")
        }
        var literals: [ScalarRange] = []
        var sets: [ScalarSet] = []
        var first = true
        while true {
            guard let c = peek else { throw PatternError(.unclosedClass, at: open..<open + 1) }
            if c == "]" { i += 1; break }
            let itemStart = i
            if c == "-" && !first && peek(1) != "]" {
                throw PatternError(.hyphenInClass, at: i..<i + 1, with: "\\-")
            }
            first = false
            switch try classAtom() {
            case .startAnchor, .endAnchor:
                preconditionFailure("escape(inClass: true) refuses anchors")
            case .set(let set):
                if peek == "-", let next = peek(1), next != "]" {
                    throw PatternError(.rangeWithClass(text(itemStart..<i)), at: itemStart..<i + 1)
                }
                sets.append(set)
            case .scalar(let lo):
                guard peek == "-", let next = peek(1), next != "]" else {
                    literals.append(ScalarRange(lo, lo))
                    continue
                }
                i += 1
                let highStart = i
                guard case .scalar(let hi) = try classAtom() else {
                    throw PatternError(.rangeWithClass(text(highStart..<i)), at: itemStart..<i)
                }
                if hi < lo {
                    let low = text(itemStart..<highStart - 1), high = text(highStart..<i)
                    throw PatternError(.reversedRange(low, high), at: itemStart..<i, with: high + "-" + low)
                }
                literals.append(ScalarRange(lo, hi))
            }
        }
        guard buildsSets else { return .empty }
        var members = ScalarSet(literals)
        if caseless { members = CaseFolding.closed(members) }
        for set in sets { members = members.union(set) }
        return negated ? members.complement : members
    }

    /// One character of a class, or a class escape.
    private mutating func classAtom() throws(PatternError) -> Escape {
        let c = s[i]
        if c == "\\" { return try escape(inClass: true) }
        if c == "[" {
            if let kind = peek(1), kind == ":" || kind == "=" || kind == "." {
                var end = i + 2
                while end + 1 < s.count, !(s[end] == kind && s[end + 1] == "]") { end += 1 }
                end = min(end + 2, s.count)
                throw PatternError(.posixClass(text(i..<end)), at: i..<end)
            }
            throw PatternError(.bracketInClass, at: i..<i + 1, with: "\\[")
        }
        i += 1
        return .scalar(c.value)
    }
}
