/// The Unicode data patterns need: general categories, scripts and simple case folding.
///
/// The tables are generated into `UnicodeTables+*.swift` by `scripts/generate-unicode-tables.py`
/// (scripts and case folding from Unicode's data files; general categories read from the
/// standard library, whose full scan costs too much per process) and decoded here on first use.
/// Everything is a `static let`: decoded once per process, thread-safely, then only read.
enum UnicodeTables {
    /// Each general category's scalars, in `GeneralCategory.allCases` order.
    static let categorySets: [ScalarSet] = {
        var ranges = [[ScalarRange]](repeating: [], count: GeneralCategory.allCases.count)
        var runs: [(start: UInt32, category: Int)] = []
        for item in generalCategoryRuns.split(separator: ",") {
            let parts = item.split(separator: ":")
            runs.append((UInt32(parts[0], radix: 16)!, Int(parts[1], radix: 16)!))
        }
        for (k, run) in runs.enumerated() {
            let end = k + 1 < runs.count ? runs[k + 1].start - 1 : ScalarSet.maxScalar
            ranges[run.category].append(ScalarRange(run.start, end))
        }
        return ranges.map(ScalarSet.init)
    }()

    /// The scalars of the categories in `categories`.
    static func categories(_ categories: [GeneralCategory]) -> ScalarSet {
        ScalarSet(categories.flatMap { categorySets[$0.rawValue].ranges })
    }

    /// The scalars of the script with loose name (or alias) `name`, or nil when there is no
    /// such script. `unknown` (`Zzzz`) is every scalar no other script claims.
    static func script(_ name: String) -> ScalarSet? {
        let key = scriptAliases[name] ?? name
        if key == "unknown" { return unknownScript }
        return scriptRanges[key].map(decodeRanges)
    }

    private static let unknownScript: ScalarSet =
        ScalarSet(scriptRanges.values.flatMap { decodeRanges($0).ranges }).complement

    /// `lo-hi` or `lo` in hex, comma-separated.
    static func decodeRanges(_ text: String) -> ScalarSet {
        ScalarSet(text.split(separator: ",").map { item in
            let bounds = item.split(separator: "-").map { UInt32($0, radix: 16)! }
            return ScalarRange(bounds[0], bounds.last!)
        })
    }

    /// Every script's name as Scripts.txt spells it, for suggestions.
    static var scriptDisplayNames: [String] { scriptNames }
}

/// The Unicode general categories, in the order of the generated table.
enum GeneralCategory: Int, CaseIterable, Sendable {
    case lu, ll, lt, lm, lo, mn, mc, me, nd, nl, no, pc, pd, ps, pe, pi, pf, po, sm, sc, sk, so
    case zs, zl, zp, cc, cf, cs, co, cn

    /// The short and long names of every category and group, by loose name (UAX #44 LM3:
    /// case, spaces, hyphens and underscores do not count): `lu` and `uppercaseletter`, `l` and
    /// `letter`, `lc` and `casedletter`.
    static let byName: [String: [GeneralCategory]] = {
        let named: [(String, String, [GeneralCategory])] = [
            ("Lu", "Uppercase_Letter", [.lu]), ("Ll", "Lowercase_Letter", [.ll]),
            ("Lt", "Titlecase_Letter", [.lt]), ("Lm", "Modifier_Letter", [.lm]), ("Lo", "Other_Letter", [.lo]),
            ("LC", "Cased_Letter", [.lu, .ll, .lt]), ("L", "Letter", [.lu, .ll, .lt, .lm, .lo]),
            ("Mn", "Nonspacing_Mark", [.mn]), ("Mc", "Spacing_Mark", [.mc]), ("Me", "Enclosing_Mark", [.me]),
            ("M", "Mark", [.mn, .mc, .me]),
            ("Nd", "Decimal_Number", [.nd]), ("Nl", "Letter_Number", [.nl]), ("No", "Other_Number", [.no]),
            ("N", "Number", [.nd, .nl, .no]),
            ("Pc", "Connector_Punctuation", [.pc]), ("Pd", "Dash_Punctuation", [.pd]),
            ("Ps", "Open_Punctuation", [.ps]), ("Pe", "Close_Punctuation", [.pe]),
            ("Pi", "Initial_Punctuation", [.pi]), ("Pf", "Final_Punctuation", [.pf]),
            ("Po", "Other_Punctuation", [.po]), ("P", "Punctuation", [.pc, .pd, .ps, .pe, .pi, .pf, .po]),
            ("Sm", "Math_Symbol", [.sm]), ("Sc", "Currency_Symbol", [.sc]), ("Sk", "Modifier_Symbol", [.sk]),
            ("So", "Other_Symbol", [.so]), ("S", "Symbol", [.sm, .sc, .sk, .so]),
            ("Zs", "Space_Separator", [.zs]), ("Zl", "Line_Separator", [.zl]),
            ("Zp", "Paragraph_Separator", [.zp]), ("Z", "Separator", [.zs, .zl, .zp]),
            ("Cc", "Control", [.cc]), ("Cf", "Format", [.cf]), ("Cs", "Surrogate", [.cs]),
            ("Co", "Private_Use", [.co]), ("Cn", "Unassigned", [.cn]),
            ("C", "Other", [.cc, .cf, .cs, .co, .cn]),
        ]
        var table: [String: [GeneralCategory]] = ["combiningmark": [.mn, .mc, .me]]
        for (short, long, categories) in named {
            table[UnicodeProperty.loose(short)] = categories
            table[UnicodeProperty.loose(long)] = categories
        }
        return table
    }()

    /// The names suggestions are made from: the short and long spellings.
    static let displayNames: [String] = [
        "L", "Lu", "Ll", "Lt", "Lm", "Lo", "LC", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp",
        "C", "Cc", "Cf", "Cs", "Co", "Cn",
        "Letter", "Uppercase_Letter", "Lowercase_Letter", "Titlecase_Letter", "Modifier_Letter", "Other_Letter",
        "Cased_Letter", "Mark", "Nonspacing_Mark", "Spacing_Mark", "Enclosing_Mark", "Number", "Decimal_Number",
        "Letter_Number", "Other_Number", "Punctuation", "Connector_Punctuation", "Dash_Punctuation",
        "Open_Punctuation", "Close_Punctuation", "Initial_Punctuation", "Final_Punctuation", "Other_Punctuation",
        "Symbol", "Math_Symbol", "Currency_Symbol", "Modifier_Symbol", "Other_Symbol", "Separator",
        "Space_Separator", "Line_Separator", "Paragraph_Separator", "Other", "Control", "Format", "Surrogate",
        "Private_Use", "Unassigned",
    ]
}

/// `\p{…}` names and the classes `\d`, `\w`, `\s`.
enum UnicodeProperty {
    /// UAX #44 LM3 loose matching: case, spaces, hyphens and underscores do not count.
    static func loose(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != " " }.map(Character.init)).lowercased()
    }

    /// The scalars of `\p{name}`: a general category or group (short or long name), else a
    /// script; nil when the name is neither.
    static func named(_ name: String) -> ScalarSet? {
        let key = loose(name)
        if let categories = GeneralCategory.byName[key] { return UnicodeTables.categories(categories) }
        return UnicodeTables.script(key)
    }

    /// `\d`: the ASCII digits only, as everywhere in Formulary (`integer`, masks).
    static let digit = ScalarSet([ScalarRange(0x30, 0x39)])

    /// `\w` as PCRE2 10.42 reads it in UCP mode: letters, numbers and the underscore.
    static let word: ScalarSet = UnicodeTables.categories([.lu, .ll, .lt, .lm, .lo, .nd, .nl, .no])
        .union(ScalarSet(scalar: 0x5F))

    /// `\s` as PCRE2 reads it in UCP mode: separators (Z), and its horizontal (`\h`) and
    /// vertical (`\v`) spaces, which add the ASCII controls tab to carriage return, U+0085
    /// and U+180E.
    static let space: ScalarSet = UnicodeTables.categories([.zs, .zl, .zp]).union(ScalarSet([
        ScalarRange(0x09, 0x0D), ScalarRange(0x20, 0x20), ScalarRange(0x85, 0x85), ScalarRange(0xA0, 0xA0),
        ScalarRange(0x1680, 0x1680), ScalarRange(0x180E, 0x180E), ScalarRange(0x2000, 0x200A),
        ScalarRange(0x2028, 0x2029), ScalarRange(0x202F, 0x202F), ScalarRange(0x205F, 0x205F),
        ScalarRange(0x3000, 0x3000),
    ]))

    /// Every `\p{…}` name a suggestion may offer.
    static var suggestions: [String] { GeneralCategory.displayNames + UnicodeTables.scriptDisplayNames }
}
