import FormularyRules

/// What values a type is tried with: characters it cares about (its mask's literals, its
/// date format, its charset and options), plus the troublemakers every type meets.
struct ValuePool {
    static let digits = "0123456789".map(String.init)
    static let letters = "abcxyzABCXYZ".map(String.init)
    static let separators = [" ", " ", "-", ".", "/", "(", ")", ",", "'", "_", ":", "\t", "\u{00A0}", "\u{2003}", "\n", "\r\n", "+", "#"]
    /// Grapheme troublemakers: accents (composed and not), case-mapping oddities, other
    /// scripts' digits, emoji with modifiers, ZWJ sequences and flags, CJK and Hangul,
    /// a private-use scalar, a letter outside the BMP, a lone combining mark.
    static let unicode = ["é", "e\u{301}", "ß", "ǆ", "Σ", "σ", "İ", "ﬁ", "ŉ", "ᾳ", "٣", "١", "Ω", "Ж", "日", "한", "각",
                          "👍", "👍🏽", "👨‍👩‍👧", "🇳🇿", "€", "\u{E000}", "\u{FFFD}", "𝔸", "\u{200D}", "\u{0300}", "ǅ",
                          "\u{1100}\u{1161}\u{11A8}", "क्षि", "\u{0301}", "·", "😀", "年", "月", "日"]

    var own: [String]
    var examples: [String]

    init(definition: FieldTypeDefinition) {
        var own: Set<String> = []
        for mask in definition.masks {
            for s in mask.pattern.unicodeScalars where !"0A*{}\\".unicodeScalars.contains(s) { own.insert(String(s)) }
        }
        for check in definition.checks {
            switch check.kind {
            case .date(let format, _):
                for s in format.unicodeScalars where !"yMd".unicodeScalars.contains(s) { own.insert(String(s)) }
            case .charset(let classes):
                for case .literal(let text) in classes { for c in text { own.insert(String(c)) } }
            case .oneOf(let options, _):
                for option in options { for c in option { own.insert(String(c)) } }
            case .decimal, .range, .integer:
                own.formUnion(["-", ".", ","])
            case .checksum(let algorithm) where algorithm == .isbn || algorithm == .isbn10:
                own.formUnion(["X", "x"])
            default:
                break
            }
        }
        for step in definition.normalization {
            if case .strip(let chars) = step { for c in chars { own.insert(String(c)) } }
        }
        self.own = own.sorted()
        examples = definition.examples.map(\.value)
        if case .oneOf(let options, _)? = definition.checks.first(where: { if case .oneOf = $0.kind { true } else { false } })?.kind {
            examples += options + options.map { $0.uppercased() } + options.map { $0.lowercased() }
        }
    }

    /// One character, mostly digits and the type's own characters.
    func character(_ random: inout SeededRandom) -> String {
        switch random.weighted([45, 14, 14 + (own.isEmpty ? 0 : 10), 8, 9]) {
        case 0: return random.pick(Self.digits)
        case 1: return random.pick(Self.letters)
        case 2: return own.isEmpty ? random.pick(Self.letters) : random.pick(own)
        case 3: return random.pick(Self.separators)
        default: return random.pick(Self.unicode)
        }
    }

    func string(_ random: inout SeededRandom, length: Int) -> String {
        var s = ""
        for _ in 0..<length { s += character(&random) }
        return s
    }

    /// A value: random characters, an example, a prefix or a mutation of one, or a number,
    /// a date-like string or a huge value.
    func value(_ random: inout SeededRandom) -> String {
        switch random.weighted([300, examples.isEmpty ? 0 : 120, examples.isEmpty ? 0 : 120, examples.isEmpty ? 0 : 120, 100, 80, 30, 3]) {
        case 0: return string(&random, length: random.int(0...22))
        case 1: return random.pick(examples)
        case 2:
            let e = Array(random.pick(examples))
            return String(e[0..<random.int(0...e.count)])
        case 3:
            var e = Array(random.pick(examples))
            for _ in 0..<random.int(1...3) {
                let at = random.int(0...e.count)
                switch random.int(0...2) {
                case 0: e.insert(contentsOf: Array(character(&random)), at: at)
                case 1: if at < e.count { e.remove(at: at) }
                default: if at < e.count { e[at] = Array(character(&random))[0] }
                }
            }
            return String(e)
        case 4:
            var s = random.chance(0.2) ? "-" : ""
            s += String((0..<random.int(1...12)).map { _ in Character(random.pick(Self.digits)) })
            if random.chance(0.5) { s += random.pick([".", ".", ","]) + String((0..<random.int(0...5)).map { _ in Character(random.pick(Self.digits)) }) }
            if random.chance(0.1) { s = " " + s + " " }
            return s
        case 5:
            let y = String(random.int(1899...2040)), m = String(format2(random.int(0...13))), d = String(format2(random.int(0...32)))
            let yy = String(y.suffix(2))
            return random.pick(["\(y)-\(m)-\(d)", "\(d)/\(m)/\(y)", "\(m)/\(yy)", "\(m)\(yy)", "\(d).\(m).\(y)", "\(d)\(m)\(y)",
                                "\(y)\(m)\(d)", "\(m)/\(y)", "\(y)-\(m)", "\(yy)", "\(y)", "\(d).\(m).\(yy)", "\(y)年\(m)月\(d)日", "\(m):\(d)"])
        case 6: return random.pick(["", " ", "\t \u{00A0}", "\n", "\u{3000}", "\r\n"])
        default:
            // A huge value: thousands of characters of one kind.
            let unit = random.pick(["9", "a", "👍", " ", "1."])
            return String(repeating: unit, count: random.int(1_000...3_000))
        }
    }

    private func format2(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
