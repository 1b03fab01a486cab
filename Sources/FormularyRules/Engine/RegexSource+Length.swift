extension RegexSource {
    /// The most characters a match of the pattern can span, or nil when it is unbounded or
    /// the pattern uses something this reader does not follow: extended mode, `\Q…\E`,
    /// backreferences, `\X`, `\R`, verbs `(*…)`, conditionals and other `(?…)` forms beyond
    /// non-capturing, named and atomic groups, lookarounds and inline flags. A conservative
    /// upper bound when not nil: the mask lint relies on it to say a `when` is too short.
    static func maximumLength(_ source: String, flags: RegexFlags) -> Int? {
        guard !flags.contains(.extended) else { return nil }
        var reader = LengthReader(Array(source.unicodeScalars))
        guard let length = reader.alternation(), reader.i == reader.s.count else { return nil }
        return length
    }
}

/// A recursive reader of the pattern's structure that adds up maximum lengths.
private struct LengthReader {
    let s: [Unicode.Scalar]
    var i = 0
    init(_ s: [Unicode.Scalar]) { self.s = s }

    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

    /// Branches separated by `|`, up to `)` or the end: the longest branch.
    mutating func alternation() -> Int? {
        var best = 0
        while true {
            guard let branch = sequence() else { return nil }
            best = max(best, branch)
            guard peek == "|" else { return best }
            i += 1
        }
    }

    mutating func sequence() -> Int? {
        var total = 0
        while let c = peek, c != "|", c != ")" {
            guard let atom = atom(), let repeated = quantified(atom) else { return nil }
            total += repeated
        }
        return total
    }

    /// One atom's maximum length (0 for assertions).
    mutating func atom() -> Int? {
        let c = s[i]
        i += 1
        switch c {
        case "^", "$": return 0
        case "[": return characterClass() ? 1 : nil
        case "\\": return escape()
        case "(": return group()
        case "*", "+", "?", "{": return c == "{" ? 1 : nil   // a stray `{` is a literal
        default: return 1
        }
    }

    mutating func escape() -> Int? {
        guard let c = peek else { return nil }
        i += 1
        switch c {
        case "b", "B", "A", "z", "Z", "G", "K": return 0
        case "x", "p", "P":
            if peek == "{" {
                while let d = peek, d != "}" { i += 1 }
                guard peek == "}" else { return nil }
                i += 1
            } else if c == "x" {
                var digits = 0
                while digits < 2, let d = peek, d.properties.isASCIIHexDigit { i += 1; digits += 1 }
            } else {
                guard peek != nil else { return nil }
                i += 1   // \pL
            }
            return 1
        case "c":
            guard peek != nil else { return nil }
            i += 1
            return 1
        case "Q", "E", "X", "R", "k", "g", "o", "N":
            return nil
        default:
            if c.value &- 0x31 < 9 { return nil }   // \1…\9: a backreference
            if c == "0" {
                var digits = 0
                while digits < 2, let d = peek, d.value &- 0x30 < 8 { i += 1; digits += 1 }
            }
            return 1
        }
    }

    /// Skips a class `[…]`; false when it is not closed.
    mutating func characterClass() -> Bool {
        if peek == "^" { i += 1 }
        if peek == "]" { i += 1 }
        while let c = peek {
            i += 1
            if c == "\\" { guard peek != nil else { return false }; i += 1; continue }
            if c == "[", peek == ":" {
                while let d = peek, d != "]" { i += 1 }
                guard peek == "]" else { return false }
                i += 1
                continue
            }
            if c == "]" { return true }
        }
        return false
    }

    mutating func group() -> Int? {
        var lookaround = false
        if peek == "*" { return nil }
        if peek == "?" {
            i += 1
            guard let c = peek else { return nil }
            switch c {
            case ":", ">":
                i += 1
            case "=", "!":
                i += 1
                lookaround = true
            case "<":
                i += 1
                if peek == "=" || peek == "!" { i += 1; lookaround = true } else if !skipName(until: ">") { return nil }
            case "P":
                i += 1
                guard peek == "<" else { return nil }
                i += 1
                guard skipName(until: ">") else { return nil }
            case "'":
                i += 1
                guard skipName(until: "'") else { return nil }
            default:
                // Inline flags: `(?i)` (no length) or `(?i:…)` (a group).
                while let d = peek, d.properties.isAlphabetic || d == "-" { i += 1 }
                if peek == ")" { i += 1; return 0 }
                guard peek == ":" else { return nil }
                i += 1
            }
        }
        guard let inner = alternation(), peek == ")" else { return nil }
        i += 1
        return lookaround ? 0 : inner
    }

    mutating func skipName(until end: Unicode.Scalar) -> Bool {
        while let c = peek, c != end {
            guard c.properties.isAlphabetic || c.value &- 0x30 < 10 || c == "_" else { return false }
            i += 1
        }
        guard peek == end else { return false }
        i += 1
        return true
    }

    /// Applies a quantifier after an atom of maximum length `atom`.
    mutating func quantified(_ atom: Int) -> Int? {
        guard let c = peek else { return atom }
        var result: Int?
        switch c {
        case "*", "+":
            i += 1
            result = atom == 0 ? 0 : nil
        case "?":
            i += 1
            result = atom
        case "{":
            guard let (upper, end) = braces() else { return atom }   // not a quantifier: `{` is literal
            i = end
            result = upper.map { atom * $0 } ?? (atom == 0 ? 0 : nil)
        default:
            return atom
        }
        if peek == "?" || peek == "+" { i += 1 }
        return result
    }

    /// `{n}`, `{n,}`, `{n,m}`, `{,m}` at `i`: the upper bound (nil: unbounded) and the index
    /// after `}`; nil when the braces are not a quantifier.
    func braces() -> (upper: Int?, end: Int)? {
        var k = i + 1
        func number() -> Int? {
            var value: Int?
            while k < s.count, s[k].value &- 0x30 < 10 {
                value = (value ?? 0) * 10 + Int(s[k].value - 0x30)
                k += 1
                if value! > 100_000 { return nil }
            }
            return value
        }
        let lower = number()
        if k < s.count, s[k] == "}" {
            guard let lower else { return nil }
            return (lower, k + 1)
        }
        guard k < s.count, s[k] == "," else { return nil }
        k += 1
        let upper = number()
        guard k < s.count, s[k] == "}", lower != nil || upper != nil else { return nil }
        return (upper, k + 1)
    }
}
