@testable import FormularyRules

/// Random patterns of Formulary's dialect, each spelled twice — in the dialect, and as PCRE2
/// must read it to mean the same — and random strings that match them, for the differential
/// tests against PCRE2 (`PatternDifferentialTests`) and the live-stage oracle
/// (`PatternLiveOracleTests`).
///
/// Where the two spellings differ is where the dialect defines otherwise (the list is in
/// docs/rule-language.md, "Patterns compared with PCRE2"): `\d` is ASCII (`[0-9]` for PCRE2),
/// `\v` is the vertical tab alone (`\x{0B}`), `\u{…}` is `\x{…}`, a script name is the Script
/// property (`\p{sc:Greek}`, where PCRE2 10.40+ reads `\p{Greek}` as Script_Extensions), long
/// category names are PCRE2's short ones, and a possessive quantifier means the plain one.
indirect enum GeneratedPattern {
    case literal(Unicode.Scalar)
    case dot
    case escape(ClassEscape)
    case characterClass([ClassItem], negated: Bool)
    case sequence([GeneratedPattern])
    case alternation([GeneratedPattern])
    /// `kind` 0: `(?:…)`, 1: `(…)`, 2: `(?<gN>…)`.
    case group(GeneratedPattern, kind: Int, name: Int)
    /// `suffix`: "", "?" (lazy) or "+" (possessive).
    case repetition(GeneratedPattern, min: Int, max: Int?, braces: Bool, suffix: String)

    enum ClassEscape: CaseIterable {
        case digit, notDigit, word, notWord, space, notSpace, letter, upper, letterLong, greek, notGreek, cyrillic

        var dialect: String {
            switch self {
            case .digit: "\\d"
            case .notDigit: "\\D"
            case .word: "\\w"
            case .notWord: "\\W"
            case .space: "\\s"
            case .notSpace: "\\S"
            case .letter: "\\p{L}"
            case .upper: "\\p{Lu}"
            case .letterLong: "\\p{Letter}"
            case .greek: "\\p{Greek}"
            case .notGreek: "\\P{Greek}"
            case .cyrillic: "\\p{Cyrillic}"
            }
        }

        func pcre(inClass: Bool) -> String {
            switch self {
            case .digit: inClass ? "0-9" : "[0-9]"
            case .notDigit: inClass ? "\\x{0}-/:-\\x{10FFFF}" : "[^0-9]"
            case .letterLong: "\\p{L}"
            case .greek: "\\p{sc:Greek}"
            case .notGreek: "\\P{sc:Greek}"
            case .cyrillic: "\\p{sc:Cyrillic}"
            default: dialect
            }
        }
    }

    enum ClassItem {
        case scalar(Unicode.Scalar)
        case range(Unicode.Scalar, Unicode.Scalar)
        case escape(ClassEscape)
    }

    /// The scalars the generator writes and the strings are made of: ASCII letters and digits,
    /// punctuation the dialect escapes, white space, case-folding oddities (Kelvin sign, long
    /// s, final sigma), Greek, Cyrillic, Han, a combining mark and an emoji.
    static let alphabet: [Unicode.Scalar] = [
        "a", "b", "c", "A", "B", "k", "K", "\u{212A}", "s", "S", "\u{17F}", "0", "1", "9", " ", "\t", "\n",
        "\u{0B}", "-", ".", "_", "(", "*", "/", "#", "é", "É", "λ", "Λ", "σ", "ς", "Σ", "ж", "Ж", "中", "\u{301}",
        "🙂", "\u{85}", "\u{A0}",
    ]

    static func random(_ rng: inout SplitMix64, depth: Int = 3, names: inout Int) -> GeneratedPattern {
        let roll = rng.int(0...(depth > 0 ? 9 : 3))
        switch roll {
        case 0, 1: return .literal(rng.pick(alphabet))
        case 2: return rng.chance(0.3) ? .dot : .escape(rng.pick(ClassEscape.allCases))
        case 3: return randomClass(&rng)
        case 4, 5:
            return .sequence((0..<rng.int(2...3)).map { _ in random(&rng, depth: depth - 1, names: &names) })
        case 6:
            return .alternation((0..<rng.int(2...3)).map { _ in random(&rng, depth: depth - 1, names: &names) })
        case 7:
            let kind = rng.int(0...2)
            if kind == 2 { names += 1 }
            let name = names
            return .group(random(&rng, depth: depth - 1, names: &names), kind: kind, name: name)
        default:
            let body = random(&rng, depth: depth - 1, names: &names)
            let wrapped: GeneratedPattern = switch body {
            case .literal, .dot, .escape, .characterClass, .group: body
            default: .group(body, kind: 0, name: 0)
            }
            let min = rng.int(0...2)
            let max: Int? = rng.chance(0.4) ? nil : min + rng.int(0...2)
            let braces = !(max == nil && min <= 1) && !(min == 0 && max == 1) || rng.chance(0.3)
            return .repetition(wrapped, min: min, max: max, braces: braces, suffix: rng.pick(["", "", "?", "+"]))
        }
    }

    private static func randomClass(_ rng: inout SplitMix64) -> GeneratedPattern {
        var items: [ClassItem] = []
        for _ in 0..<rng.int(1...3) {
            switch rng.int(0...3) {
            case 0: items.append(.escape(rng.pick(ClassEscape.allCases)))
            case 1:
                let pairs: [(Unicode.Scalar, Unicode.Scalar)] = [("a", "c"), ("0", "9"), ("A", "Z"), ("α", "ω"), ("а", "я"), ("j", "s")]
                let (lo, hi) = rng.pick(pairs)
                items.append(.range(lo, hi))
            default: items.append(.scalar(rng.pick(alphabet)))
            }
        }
        return .characterClass(items, negated: rng.chance(0.3))
    }

    // MARK: Spelling

    /// The pattern in the dialect (`pcre` false) or in PCRE2's spelling; under `x`, with
    /// white space between items and literal spaces and `#` escaped.
    func spelled(pcre: Bool, extended: Bool) -> String {
        switch self {
        case .literal(let c): return Self.literal(c, pcre: pcre, extended: extended)
        case .dot: return "."
        case .escape(let e): return pcre ? e.pcre(inClass: false) : e.dialect
        case .characterClass(let items, let negated):
            var out = negated ? "[^" : "["
            for item in items {
                switch item {
                case .scalar(let c): out += Self.classLiteral(c, pcre: pcre)
                case .range(let lo, let hi): out += Self.classLiteral(lo, pcre: pcre) + "-" + Self.classLiteral(hi, pcre: pcre)
                case .escape(let e): out += pcre ? e.pcre(inClass: true) : e.dialect
                }
            }
            return out + "]"
        case .sequence(let items):
            return items.map { $0.spelled(pcre: pcre, extended: extended) }.joined(separator: extended ? " " : "")
        case .alternation(let branches):
            return branches.map { $0.spelled(pcre: pcre, extended: extended) }.joined(separator: "|")
        case .group(let body, let kind, let name):
            let open = kind == 0 ? "(?:" : kind == 1 ? "(" : "(?<g\(name)>"
            return open + body.spelled(pcre: pcre, extended: extended) + ")"
        case .repetition(let body, let min, let max, let braces, let suffix):
            var quantifier: String
            if braces {
                quantifier = max == min ? "{\(min)}" : "{\(min),\(max.map(String.init) ?? "")}"
            } else {
                quantifier = max == nil ? (min == 0 ? "*" : "+") : "?"
            }
            // A possessive quantifier means the plain one in the dialect; PCRE2 gets the plain one.
            quantifier += pcre && suffix == "+" ? "" : suffix
            return body.spelled(pcre: pcre, extended: extended) + (extended ? " " : "") + quantifier
        }
    }

    private static func literal(_ c: Unicode.Scalar, pcre: Bool, extended: Bool) -> String {
        if c == "\u{0B}" { return pcre ? "\\x{0B}" : "\\v" }
        if c == "\n" { return "\\n" }
        if c == "\t" { return "\\t" }
        if "\\.^$|?*+()[]{}".unicodeScalars.contains(c) { return "\\" + String(c) }
        if extended && (c == " " || c == "#") { return "\\" + String(c) }
        if extended && c.properties.isPatternWhitespace { return pcre ? "\\x{\(String(c.value, radix: 16))}" : "\\u{\(String(c.value, radix: 16))}" }
        if !c.isASCII && c.value % 3 == 0 { return pcre ? "\\x{\(String(c.value, radix: 16))}" : "\\u{\(String(c.value, radix: 16))}" }
        return String(c)
    }

    private static func classLiteral(_ c: Unicode.Scalar, pcre: Bool) -> String {
        if c == "\u{0B}" { return pcre ? "\\x{0B}" : "\\v" }
        if c == "\n" { return "\\n" }
        if c == "\t" { return "\\t" }
        if "\\]^-[".unicodeScalars.contains(c) { return "\\" + String(c) }
        return String(c)
    }

    // MARK: Sampling

    /// A random string the pattern matches (classes and escapes draw from `alphabet`, asking
    /// `member` which scalars they hold), or nil when a class has no member in the alphabet.
    func sample(_ rng: inout SplitMix64, caseless: Bool, member: (GeneratedPattern, Unicode.Scalar) -> Bool) -> String? {
        switch self {
        case .literal(let c):
            guard caseless, rng.chance(0.5) else { return String(c) }
            let variants = Self.alphabet.filter { member(self, $0) }
            return variants.isEmpty ? String(c) : String(rng.pick(variants))
        case .dot, .escape, .characterClass:
            let members = Self.alphabet.filter { member(self, $0) }
            return members.isEmpty ? nil : String(rng.pick(members))
        case .sequence(let items):
            var out = ""
            for item in items {
                guard let part = item.sample(&rng, caseless: caseless, member: member) else { return nil }
                out += part
            }
            return out
        case .alternation(let branches):
            for branch in branches.shuffled(using: &rng) {
                if let part = branch.sample(&rng, caseless: caseless, member: member) { return part }
            }
            return nil
        case .group(let body, _, _):
            return body.sample(&rng, caseless: caseless, member: member)
        case .repetition(let body, let min, let max, _, _):
            let count = rng.int(min...(max ?? min + 3))
            var out = ""
            for _ in 0..<count {
                guard let part = body.sample(&rng, caseless: caseless, member: member) else { return count == 0 ? "" : nil }
                out += part
            }
            return out
        }
    }
}

extension SplitMix64 {
    /// `text` with a scalar inserted, removed or replaced (from `alphabet`), or cut short.
    mutating func mutated(_ text: String, alphabet: [Unicode.Scalar]) -> String {
        var scalars = Array(text.unicodeScalars)
        switch int(0...3) {
        case 0: scalars.insert(pick(alphabet), at: int(0...scalars.count))
        case 1 where !scalars.isEmpty: scalars.remove(at: int(0...scalars.count - 1))
        case 2 where !scalars.isEmpty: scalars[int(0...scalars.count - 1)] = pick(alphabet)
        default: scalars = Array(scalars.prefix(int(0...scalars.count)))
        }
        return String(String.UnicodeScalarView(scalars))
    }

    /// A random string of up to `maxLength` scalars from `alphabet`.
    mutating func scalars(from alphabet: [Unicode.Scalar], maxLength: Int) -> String {
        String(String.UnicodeScalarView((0..<int(0...maxLength)).map { _ in pick(alphabet) }))
    }
}
