/// How a pattern that starts with lookaheads (or ends with lookbehinds) reads as several
/// patterns, for the fix-it of a lookaround: `(?=.*[0-9])(?!.*\s).{8,}` means the same as
/// three checks, `pattern /.*[0-9][\s\S]*/`, `pattern not /.*\s[\s\S]*/` and
/// `pattern /.{8,}/`.
///
/// Exact for whole-value matching: `(?=A)` at the start holds when some prefix of the value
/// matches `A`, that is when the value matches `A[\s\S]*`; `(?!A)` when it does not;
/// `(?<=A)` at the end when the value matches `[\s\S]*A`. Nil for any other shape: a
/// lookaround in the middle, a top-level `|` (the lookaround would govern one branch only),
/// or pieces that do not parse on their own.
struct LookaroundSplit: Hashable, Sendable {
    struct Check: Hashable, Sendable {
        var negated: Bool
        var source: String
    }

    /// The checks the lookarounds become, in order.
    var checks: [Check]
    /// The pattern without its lookarounds.
    var remainder: String

    init?(_ source: String, flags: RegexFlags) {
        let s = Array(source.unicodeScalars)
        var scanner = PatternParser(s: s, caseless: false, extended: flags.contains(.extended))
        scanner.leadingFlags()
        let prefix = String(String.UnicodeScalarView(s[..<scanner.i]))
        guard let groups = Self.topLevelGroups(s, from: scanner.i, extended: scanner.extended) else { return nil }
        func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(s[range])) }
        func introducer(_ group: Range<Int>) -> PatternProblem.Lookaround? {
            let head = text(group.lowerBound..<min(group.lowerBound + 4, group.upperBound))
            for kind in [PatternProblem.Lookaround.lookbehind, .negativeLookbehind, .lookahead, .negativeLookahead]
            where head.hasPrefix(kind.rawValue) { return kind }
            return nil
        }
        var leading: [(PatternProblem.Lookaround, Range<Int>)] = []
        var position = scanner.i
        for group in groups {
            guard Self.onlySpace(s, position..<group.lowerBound, extended: scanner.extended),
                  let kind = introducer(group), kind == .lookahead || kind == .negativeLookahead else { break }
            leading.append((kind, group))
            position = group.upperBound
        }
        var trailing: [(PatternProblem.Lookaround, Range<Int>)] = []
        var end = s.count
        for group in groups.reversed() where group.lowerBound >= position {
            guard Self.onlySpace(s, group.upperBound..<end, extended: scanner.extended),
                  let kind = introducer(group), kind == .lookbehind || kind == .negativeLookbehind else { break }
            trailing.insert((kind, group), at: 0)
            end = group.lowerBound
        }
        guard !(leading.isEmpty && trailing.isEmpty) else { return nil }
        remainder = prefix + text(position..<end)
        guard let rest = try? PatternParser.parse(remainder, flags: flags),
              rest != .sequence([]) else { return nil }
        checks = []
        for (kind, group) in leading + trailing {
            let bodyStart = group.lowerBound + kind.rawValue.unicodeScalars.count
            var body = text(bodyStart..<group.upperBound - 1)
            guard let parsed = try? PatternParser.parse(prefix + body, flags: flags) else { return nil }
            if case .alternation = parsed { body = "(?:" + body + ")" }
            let any = "[\\s\\S]*"
            let ahead = kind == .lookahead || kind == .negativeLookahead
            checks.append(Check(negated: kind == .negativeLookahead || kind == .negativeLookbehind,
                                source: prefix + (ahead ? body + any : any + body)))
        }
    }

    /// The spans of the groups at the top level, from `start` on; nil when the pattern has a
    /// top-level `|` or its parentheses do not balance.
    private static func topLevelGroups(_ s: [Unicode.Scalar], from start: Int, extended: Bool) -> [Range<Int>]? {
        var groups: [Range<Int>] = []
        var depth = 0, open = 0, k = start
        var inClass = false
        while k < s.count {
            let c = s[k]
            if c == "\\" { k += 2; continue }
            if inClass {
                if c == "]" { inClass = false }
            } else if c == "[" {
                inClass = true
                if k + 1 < s.count, s[k + 1] == "^" { k += 1 }
                if k + 1 < s.count, s[k + 1] == "]" { k += 1 }
            } else if extended && c == "#" {
                while k < s.count, s[k] != "\n" { k += 1 }
            } else if c == "(" {
                if depth == 0 { open = k }
                depth += 1
            } else if c == ")" {
                depth -= 1
                if depth < 0 { return nil }
                if depth == 0 { groups.append(open..<k + 1) }
            } else if c == "|" && depth == 0 {
                return nil
            }
            k += 1
        }
        return depth == 0 ? groups : nil
    }

    private static func onlySpace(_ s: [Unicode.Scalar], _ range: Range<Int>, extended: Bool) -> Bool {
        range.isEmpty || (extended && s[range].allSatisfy { $0.properties.isPatternWhitespace })
    }
}
