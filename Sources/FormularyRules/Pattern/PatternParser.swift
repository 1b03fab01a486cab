/// A parsed pattern: the shape the value's scalars must have, flags already applied (case
/// variants added to the sets under `i`, white space and comments gone under `x`).
indirect enum PatternNode: Hashable, Sendable {
    /// One scalar of the set.
    case set(ScalarSet)
    /// Each in turn; empty, the empty string.
    case sequence([PatternNode])
    /// Any one of them.
    case alternation([PatternNode])
    /// From `min` to `max` (nil: no limit) times.
    case repetition(PatternNode, min: Int, max: Int?)
}

/// Reads Formulary's pattern dialect (docs/rule-language.md, "Patterns"). Anything else is a
/// `PatternError` naming the construct.
///
/// Every step consumes at least one scalar or ends a construct, so the parser cannot loop
/// without consuming input; groups nest at most `maxDepth` deep, which bounds the recursion
/// here and in every pass over the tree. The automaton a pattern expands to (each counted
/// repetition copied out) is bounded by `maxStates`, so compiling it takes bounded memory.
struct PatternParser {
    static let maxRepetition = 1000
    static let maxDepth = 100
    static let maxStates = 100_000

    let s: [Unicode.Scalar]
    var i = 0
    var caseless: Bool
    var extended: Bool
    var depth = 0
    var groupNames: Set<String> = []
    /// False when only checking: every set is then left empty, so that reading a file's
    /// patterns needs no Unicode table (the compiler builds them, for the types it compiles).
    var buildsSets = true

    /// Parses `source` with `flags` (plus any `(?i)`/`(?x)` at its start).
    static func parse(_ source: String, flags: RegexFlags) throws(PatternError) -> PatternNode {
        try parse(source, flags: flags, buildingSets: true)
    }

    /// Checks `source` with `flags` as `parse` does, without building its sets.
    static func check(_ source: String, flags: RegexFlags) throws(PatternError) {
        _ = try parse(source, flags: flags, buildingSets: false)
    }

    private static func parse(_ source: String, flags: RegexFlags, buildingSets: Bool) throws(PatternError) -> PatternNode {
        var parser = PatternParser(s: Array(source.unicodeScalars), caseless: flags.contains(.caseInsensitive),
                                   extended: flags.contains(.extended))
        parser.buildsSets = buildingSets
        parser.leadingFlags()
        let (node, size) = try parser.alternation(topLevel: true)
        if parser.i < parser.s.count {   // only a `)` ends an alternation early
            throw PatternError(.unmatchedParenthesis, at: parser.i..<parser.i + 1, with: "\\)")
        }
        if size > maxStates {
            throw PatternError(.tooLarge(states: size, limit: maxStates), at: 0..<max(1, parser.s.count))
        }
        return node
    }

    init(s: [Unicode.Scalar], caseless: Bool, extended: Bool) {
        self.s = s
        self.caseless = caseless
        self.extended = extended
    }

    var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? { i + offset < s.count ? s[i + offset] : nil }

    /// Under `x`, skips white space (Unicode Pattern_White_Space, as PCRE2) and `#` comments,
    /// which run to the next line feed.
    mutating func skipExtended() {
        guard extended else { return }
        while let c = peek {
            if c.properties.isPatternWhitespace {
                i += 1
            } else if c == "#" {
                while let d = peek, d != "\n" { i += 1 }
            } else {
                return
            }
        }
    }

    /// `(?i)`, `(?x)`, `(?ix)`… at the very start set flags for the whole pattern.
    mutating func leadingFlags() {
        while true {
            skipExtended()
            guard peek == "(", peek(1) == "?" else { return }
            var k = i + 2
            var caseless = false, extended = false
            while k < s.count, s[k] == "i" || s[k] == "x" {
                if s[k] == "i" { caseless = true } else { extended = true }
                k += 1
            }
            guard k > i + 2, k < s.count, s[k] == ")" else { return }
            self.caseless = self.caseless || caseless
            self.extended = self.extended || extended
            i = k + 1
        }
    }

    // MARK: Structure

    /// Branches separated by `|`, up to `)` or the end. Returns the node and the number of
    /// automaton states it expands to.
    mutating func alternation(topLevel: Bool) throws(PatternError) -> (PatternNode, Int) {
        var branches: [PatternNode] = []
        var size = 0
        while true {
            let (branch, branchSize) = try sequence(topLevel: topLevel)
            if buildsSets { branches.append(branch) }
            size = Self.add(size, branchSize)
            guard peek == "|" else { break }
            i += 1
        }
        if !buildsSets { return (Self.checked, size) }
        if branches.count == 1 { return (branches[0], size) }
        return (.alternation(branches), Self.add(size, branches.count - 1))
    }

    /// Items up to `|`, `)` or the end. At the top level, `^`/`\A` may only come before
    /// every item and `$`/`\z` after every one.
    mutating func sequence(topLevel: Bool) throws(PatternError) -> (PatternNode, Int) {
        var items: [PatternNode] = []
        var itemCount = 0   // also when checking, which keeps no items
        var size = 0
        var endAnchor: Range<Int>? = nil
        while true {
            skipExtended()
            guard let c = peek, c != "|", c != ")" else { break }
            let start = i
            switch try atom() {
            case .startAnchor(let text):
                if !topLevel || itemCount > 0 || endAnchor != nil {
                    throw PatternError(.anchorNotAtStart(text), at: start..<i,
                                       with: text == "^" ? "\\^" : nil)
                }
                try noQuantifier(after: text)
            case .endAnchor(let text):
                if !topLevel {
                    throw PatternError(.anchorNotAtEnd(text), at: start..<i, with: text == "$" ? "\\$" : nil)
                }
                endAnchor = endAnchor ?? start..<i
                try noQuantifier(after: text)
            case .node(let node, let nodeSize):
                if let endAnchor {
                    let text = String(String.UnicodeScalarView(s[endAnchor]))
                    throw PatternError(.anchorNotAtEnd(text), at: endAnchor, with: text == "$" ? "\\$" : nil)
                }
                let (repeated, repeatedSize) = try quantified(node, size: nodeSize, atomStart: start)
                if buildsSets { items.append(repeated) }
                itemCount += 1
                size = Self.add(size, repeatedSize)
            }
        }
        if !buildsSets { return (Self.checked, size) }
        return (items.count == 1 ? items[0] : .sequence(items), size)
    }

    /// What one step of a sequence read.
    enum Atom {
        case node(PatternNode, size: Int)
        case startAnchor(String)
        case endAnchor(String)
    }

    mutating func atom() throws(PatternError) -> Atom {
        let start = i
        let c = s[i]
        switch c {
        case "(":
            let (node, size) = try group()
            return .node(node, size: size)
        case "[":
            return .node(.set(try characterClass()), size: 1)
        case ".":
            i += 1
            return .node(.set(Self.dot), size: 1)
        case "\\":
            switch try escape(inClass: false) {
            case .scalar(let value): return .node(buildsSets ? .set(literal(value)) : Self.checked, size: 1)
            case .set(let set): return .node(buildsSets ? .set(set) : Self.checked, size: 1)
            case .startAnchor: return .startAnchor("\\A")
            case .endAnchor: return .endAnchor("\\z")
            }
        case "^":
            i += 1
            return .startAnchor("^")
        case "$":
            i += 1
            return .endAnchor("$")
        case "*", "+", "?":
            throw PatternError(.nothingToRepeat(String(c)), at: start..<start + 1)
        case "{":
            if let (_, _, end) = try braceQuantifier() {
                throw PatternError(.nothingToRepeat(text(start..<end)), at: start..<end)
            }
            throw PatternError(.braceNotQuantifier, at: start..<start + 1, with: "\\{")
        case "}", "]":
            throw PatternError(.loneBracket(Character(c)), at: start..<start + 1, with: "\\" + String(c))
        default:
            i += 1
            return .node(buildsSets ? .set(literal(c.value)) : Self.checked, size: 1)
        }
    }

    /// What checking gives for every part of a pattern: no tree is built, only sizes counted.
    static let checked = PatternNode.sequence([])

    /// `.`: any scalar but a line feed.
    static let dot = ScalarSet.all.subtracting(ScalarSet(scalar: 0x0A))

    /// A literal scalar, with its case variants under `i`.
    func literal(_ value: UInt32) -> ScalarSet {
        caseless && buildsSets ? CaseFolding.variants(of: value) : ScalarSet(scalar: value)
    }

    /// `make()`, or the empty set when only checking.
    func built(_ make: @autoclosure () -> ScalarSet) -> ScalarSet { buildsSets ? make() : .empty }

    func text(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(s[range])) }

    /// A quantifier after an anchor has nothing to repeat.
    mutating func noQuantifier(after anchor: String) throws(PatternError) {
        skipExtended()
        let start = i
        guard let c = peek else { return }
        if c == "*" || c == "+" || c == "?" {
            throw PatternError(.nothingToRepeat(String(c)), at: start..<start + 1)
        }
        if c == "{", let (_, _, end) = try braceQuantifier() {
            throw PatternError(.nothingToRepeat(text(start..<end)), at: start..<end)
        }
    }

    // MARK: Quantifiers

    /// The atom with the quantifier that follows it, if any: `*` `+` `?` `{n}` `{n,}`
    /// `{n,m}`, each optionally followed by `?` (lazy) or `+` (possessive), which whole-value
    /// matching without backtracking reads as the plain quantifier.
    mutating func quantified(_ node: PatternNode, size: Int, atomStart: Int) throws(PatternError) -> (PatternNode, Int) {
        skipExtended()
        let start = i
        guard let c = peek else { return (node, size) }
        var bounds: (min: Int, max: Int?)
        switch c {
        case "*": bounds = (0, nil); i += 1
        case "+": bounds = (1, nil); i += 1
        case "?": bounds = (0, 1); i += 1
        case "{":
            guard let (low, high, end) = try braceQuantifier() else {
                throw PatternError(.braceNotQuantifier, at: start..<start + 1, with: "\\{")
            }
            bounds = (low, high)
            i = end
        default:
            return (node, size)
        }
        if peek == "?" || peek == "+" { i += 1 }
        let quantifierEnd = i
        skipExtended()
        if let next = peek {
            let another = try next == "{" ? braceQuantifier() != nil : (next == "*" || next == "+" || next == "?")
            if another { throw PatternError(.repeatedQuantifier(text(start..<quantifierEnd)), at: i..<i + 1) }
        }
        // Copies of the atom, plus a split per optional copy or for the loop.
        let copies = bounds.max ?? bounds.min + 1
        let total = Self.add(Self.multiply(size, copies), (bounds.max ?? bounds.min + 1) - bounds.min)
        if total > Self.maxStates {
            throw PatternError(.tooLarge(states: total, limit: Self.maxStates), at: atomStart..<quantifierEnd)
        }
        if bounds.min == 1 && bounds.max == 1 { return (node, size) }
        if !buildsSets { return (Self.checked, total) }
        return (.repetition(node, min: bounds.min, max: bounds.max), total)
    }

    /// `{n}`, `{n,}` or `{n,m}` at `i` (which is left where it was): the bounds and the index
    /// after `}`, or nil when the brace starts no quantifier. `{,m}` and bounds above
    /// `maxRepetition` or out of order are errors.
    func braceQuantifier() throws(PatternError) -> (Int, Int?, Int)? {
        var k = i + 1
        func number() -> (Int, Range<Int>)? {
            let first = k
            var value = 0
            while k < s.count, let digit = Self.decimalDigit(s[k]) {
                value = min(value * 10 + digit, 1_000_000)
                k += 1
            }
            return k > first ? (value, first..<k) : nil
        }
        let lower = number()
        var upper: (Int, Range<Int>)?
        var unbounded = false
        if k < s.count, s[k] == "," {
            k += 1
            upper = number()
            unbounded = upper == nil
        }
        guard k < s.count, s[k] == "}" else { return nil }
        let end = k + 1
        guard let (low, lowRange) = lower else {
            if let upper { throw PatternError(.repetitionWithoutLowerBound, at: i..<end, with: "{0,\(upper.0)}") }
            return nil
        }
        for (value, range) in [(low, lowRange)] + (upper.map { [$0] } ?? []) where value > Self.maxRepetition {
            throw PatternError(.repetitionTooLarge(value), at: range)
        }
        if unbounded { return (low, nil, end) }
        let high = upper?.0 ?? low
        if high < low {
            throw PatternError(.repetitionOutOfOrder(min: low, max: high), at: i..<end, with: "{\(high),\(low)}")
        }
        return (low, high, end)
    }

    static func decimalDigit(_ c: Unicode.Scalar) -> Int? {
        c.value &- 0x30 < 10 ? Int(c.value - 0x30) : nil
    }

    // Sizes saturate above `maxStates`, so that nested repetitions cannot overflow.
    static func add(_ a: Int, _ b: Int) -> Int { min(a + b, maxStates + 1) }
    static func multiply(_ a: Int, _ b: Int) -> Int { a == 0 || b == 0 ? 0 : min(a * b, maxStates + 1) }
}
