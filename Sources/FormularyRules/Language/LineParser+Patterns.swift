/// Regex literals are read as patterns while the line is parsed, so that a problem points at
/// its place inside the literal (`pattern /ab(c/` puts the caret under the `(`), with a fix-it
/// where one is known. Compiling to an automaton waits for the compiler.
extension LineParser {
    /// Where a pattern stands: a check (`pattern`, `pattern not`) or a mask's `when`.
    enum PatternUse { case check, negatedCheck, maskCondition }

    /// Throws the pattern's first problem as a diagnostic located in `token`, the literal.
    func checkPattern(_ source: String, _ flags: RegexFlags, token: Token, use: PatternUse) throws(Diagnostic) {
        do {
            try PatternParser.check(source, flags: flags)
        } catch {
            let place = LiteralPlaces(token: token, source: source)
            var replacing = error.replacing.map(place.location)
            var replacement = error.replacement.map { Canonical.regexBody($0) }
            if case .lookaround = error.problem {
                (replacing, replacement) = use == .check ? splitFixIt(source, flags, token: token) : (nil, nil)
            }
            throw self.error(LanguageDiagnostic.patternProblem(error.problem, replacing: replacing, with: replacement),
                             at: place.location(error.range))
        }
    }

    /// For a `pattern` line whose pattern starts with lookaheads or ends with lookbehinds: the
    /// line from its keyword to the end of the literal, and the check lines that mean the same
    /// (`LookaroundSplit`). The new checks come first, named after the line's rule; the last
    /// line is the pattern without its lookarounds, which keeps the line's rule modifiers.
    private func splitFixIt(_ source: String, _ flags: RegexFlags, token: Token) -> (SourceLocation?, String?) {
        guard let split = LookaroundSplit(source, flags: flags), keyword.location.line == token.location.line
        else { return (nil, nil) }
        var rule = "pattern"
        var k = cursor.index
        while k + 1 < cursor.tokens.count {
            if cursor.tokens[k].word == "as", let name = cursor.tokens[k + 1].word { rule = name }
            k += 1
        }
        var lines: [String] = []
        for (n, check) in split.checks.enumerated() {
            lines.append((check.negated ? "pattern not " : "pattern ") + Canonical.regex(check.source, flags)
                         + " as \(rule)-\(n + 1)")
        }
        lines.append("pattern " + Canonical.regex(split.remainder, flags))
        var range = keyword.location
        range.length = token.location.column + token.location.length - keyword.location.column
        return (range, lines.joined(separator: "\n"))
    }
}

/// Maps offsets in a pattern's source (Unicode scalars, `\/` read as `/`) to places in the
/// file: the literal's column plus the characters (grapheme clusters) before the offset in
/// the literal as written.
private struct LiteralPlaces {
    let token: Token
    let written: [Unicode.Scalar]
    /// For each scalar of the source (and its end), the index in `written` where it starts.
    let starts: [Int]

    init(token: Token, source: String) {
        self.token = token
        written = Array(token.text.unicodeScalars)
        var starts: [Int] = []
        var k = 1   // after the opening slash
        var pendingPair = false
        for _ in source.unicodeScalars {
            starts.append(k)
            if !pendingPair, k + 1 < written.count, written[k] == "\\" {
                if written[k + 1] == "/" { k += 2; continue }
                pendingPair = true
            } else {
                pendingPair = false
            }
            k += 1
        }
        starts.append(k)
        self.starts = starts
    }

    func location(_ range: Range<Int>) -> SourceLocation {
        let lower = starts[min(range.lowerBound, starts.count - 1)]
        let upper = max(starts[min(range.upperBound, starts.count - 1)], lower + 1)
        var location = token.location
        location.column += Self.characters(written[0..<lower])
        location.length = max(1, Self.characters(written[lower..<min(upper, written.count)]))
        return location
    }

    private static func characters(_ scalars: ArraySlice<Unicode.Scalar>) -> Int {
        String(String.UnicodeScalarView(scalars)).count
    }
}
