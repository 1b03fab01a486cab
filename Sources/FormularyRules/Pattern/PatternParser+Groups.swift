/// Groups: `(…)`, `(?:…)`, `(?<name>…)`, and the group syntaxes of other dialects, each
/// refused with what to write instead.
extension PatternParser {
    mutating func group() throws(PatternError) -> (PatternNode, Int) {
        let opening = i
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth {
            throw PatternError(.nestedTooDeep(limit: Self.maxDepth), at: opening..<opening + 1)
        }
        i += 1
        if peek == "*" {
            let end = afterClosingParenthesis(from: i)
            throw PatternError(.verb(text(opening..<end)), at: opening..<end)
        }
        if peek == "?" { try groupKind(opening: opening) }
        let (node, size) = try alternation(topLevel: false)
        guard peek == ")" else { throw PatternError(.unclosedGroup, at: opening..<opening + 1) }
        i += 1
        return (node, size)
    }

    /// Reads what follows `(?` (with `i` at the `?`): a non-capturing or named group goes on
    /// (captures mean nothing in whole-value matching, so both are plain groups); every other
    /// kind is refused.
    private mutating func groupKind(opening: Int) throws(PatternError) {
        let k = i + 1
        guard k < s.count else { throw PatternError(.unclosedGroup, at: opening..<opening + 1) }
        let c = s[k]
        let introducer = opening..<min(k + 1, s.count)
        switch c {
        case ":":
            i = k + 1
        case "<" where peek(2) == "=" || peek(2) == "!":
            let kind: PatternProblem.Lookaround = peek(2) == "=" ? .lookbehind : .negativeLookbehind
            throw PatternError(.lookaround(kind), at: opening..<k + 2)
        case "<":
            i = k + 1
            try groupName(opening: opening, closing: ">")
        case "P" where peek(2) == "<":
            let start = i
            i = k + 2
            let nameStart = i
            try groupName(opening: opening, closing: ">")
            throw PatternError(.namedGroupSpelling(text(opening..<i)), at: opening..<start + 3, replacing: opening..<i,
                               with: "(?<" + text(nameStart..<i))
        case "'":
            i = k + 1
            let nameStart = i
            try groupName(opening: opening, closing: "'")
            let name = text(nameStart..<i - 1)
            throw PatternError(.namedGroupSpelling(text(opening..<i)), at: opening..<i, with: "(?<\(name)>")
        case "P" where peek(2) == "=":
            let end = afterClosingParenthesis(from: k)
            throw PatternError(.backreference(text(opening..<end)), at: opening..<end)
        case "P" where peek(2) == ">", "R", "&", "+", "-", "0"..."9":
            let end = afterClosingParenthesis(from: k)
            throw PatternError(.recursion(text(opening..<end)), at: opening..<end)
        case "=", "!":
            throw PatternError(.lookaround(c == "=" ? .lookahead : .negativeLookahead), at: introducer)
        case ">":
            throw PatternError(.atomicGroup, at: introducer, with: "(?:")
        case "|":
            throw PatternError(.branchReset, at: introducer, with: "(?:")
        case "#":
            var end = k
            while end < s.count, s[end] != ")" { end += 1 }
            guard end < s.count else { throw PatternError(.unclosedGroup, at: opening..<opening + 1) }
            throw PatternError(.groupComment, at: opening..<end + 1, with: "")
        case "(":
            throw PatternError(.conditional, at: introducer)
        case "C":
            let end = afterClosingParenthesis(from: k)
            throw PatternError(.verb(text(opening..<end)), at: opening..<end)
        default:
            var end = k
            while end < s.count, s[end].properties.isAlphabetic || s[end] == "-" || s[end] == "^" { end += 1 }
            if end > k, end < s.count, s[end] == ")" || s[end] == ":" {
                throw PatternError(.inlineFlags(text(opening..<end + 1)), at: opening..<end + 1)
            }
            throw PatternError(.unknownGroup(text(introducer)), at: introducer)
        }
    }

    /// A group name up to `closing`, which is consumed: letters, digits and `_`, not starting
    /// with a digit, at most 32 characters (as PCRE2), each name once.
    private mutating func groupName(opening: Int, closing: Unicode.Scalar) throws(PatternError) {
        let start = i
        while let c = peek, c != closing, c != ")" { i += 1 }
        guard peek == closing else { throw PatternError(.unclosedGroup, at: opening..<opening + 1) }
        let name = text(start..<i)
        let valid = !name.isEmpty && name.unicodeScalars.count <= 32
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || Self.decimalDigit($0) != nil) }
            && Self.decimalDigit(name.unicodeScalars.first!) == nil
        guard valid else { throw PatternError(.invalidGroupName(name), at: start..<max(i, start + 1)) }
        guard groupNames.insert(name).inserted else {
            throw PatternError(.duplicateGroupName(name), at: start..<i)
        }
        i += 1
    }

    /// The index after the first `)` at or after `k`, or the end.
    func afterClosingParenthesis(from k: Int) -> Int {
        var end = k
        while end < s.count, s[end] != ")" { end += 1 }
        return min(end + 1, s.count)
    }
}
