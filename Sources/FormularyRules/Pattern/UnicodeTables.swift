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
        var numbers: [UInt32] = []
        numbers.reserveCapacity(8_192)
        scanHex(generalCategoryRuns) { value, _ in numbers.append(value) }
        for k in stride(from: 0, to: numbers.count, by: 2) {
            let end = k + 2 < numbers.count ? numbers[k + 2] - 1 : ScalarSet.maxScalar
            ranges[Int(numbers[k + 1])].append(ScalarRange(numbers[k], end))
        }
        // Runs come in order, and a category's runs never touch (each run is maximal).
        return ranges.map { ScalarSet(ascending: $0) }
    }()

    /// Calls `body` with each hex number of a table's text and the byte that ends it (`,`,
    /// `:`, `-`, or 0 at the end). The tables are a few tens of kilobytes, decoded once: one
    /// pass over the bytes, no substrings.
    static func scanHex(_ text: String, _ body: (UInt32, UInt8) -> Void) {
        var text = text
        text.withUTF8 { bytes in
            var value: UInt32 = 0
            var digits = 0
            for byte in bytes {
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                default:
                    if digits > 0 { body(value, byte) }
                    value = 0
                    digits = 0
                    continue
                }
                value = value << 4 | digit
                digits += 1
            }
            if digits > 0 { body(value, 0) }
        }
    }

    /// The scalars of the categories in `categories`.
    static func categories(_ categories: [GeneralCategory]) -> ScalarSet {
        if categories == letterCategories { return letters }
        if categories.count == 1 { return categorySets[categories[0].rawValue] }
        return ScalarSet(categories.flatMap { categorySets[$0.rawValue].ranges })
    }

    private static let letterCategories: [GeneralCategory] = [.lu, .ll, .lt, .lm, .lo]

    /// General category L, which `\p{L}`, `\w`, mask letter slots and slot characters use:
    /// made once.
    static let letters = ScalarSet(letterCategories.flatMap { categorySets[$0.rawValue].ranges })

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
        var ranges: [ScalarRange] = []
        var low: UInt32?
        scanHex(text) { value, separator in
            if separator == UInt8(ascii: "-") {
                low = value
            } else {
                ranges.append(ScalarRange(low ?? value, value))
                low = nil
            }
        }
        return ScalarSet(ranges)
    }

    /// Whether `name` (loose) is a script or a script's alias.
    static func isScript(_ name: String) -> Bool {
        let key = scriptAliases[name] ?? name
        return key == "unknown" || scriptRanges[key] != nil
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
    /// `letter`, `lc` and `casedletter`. Written loose, so that no name is worked out at run time.
    static let byName: [String: [GeneralCategory]] = [
        "lu": [.lu], "uppercaseletter": [.lu],
        "ll": [.ll], "lowercaseletter": [.ll],
        "lt": [.lt], "titlecaseletter": [.lt],
        "lm": [.lm], "modifierletter": [.lm],
        "lo": [.lo], "otherletter": [.lo],
        "lc": [.lu, .ll, .lt], "casedletter": [.lu, .ll, .lt],
        "l": [.lu, .ll, .lt, .lm, .lo], "letter": [.lu, .ll, .lt, .lm, .lo],
        "mn": [.mn], "nonspacingmark": [.mn],
        "mc": [.mc], "spacingmark": [.mc],
        "me": [.me], "enclosingmark": [.me],
        "m": [.mn, .mc, .me], "mark": [.mn, .mc, .me],
        "nd": [.nd], "decimalnumber": [.nd],
        "nl": [.nl], "letternumber": [.nl],
        "no": [.no], "othernumber": [.no],
        "n": [.nd, .nl, .no], "number": [.nd, .nl, .no],
        "pc": [.pc], "connectorpunctuation": [.pc],
        "pd": [.pd], "dashpunctuation": [.pd],
        "ps": [.ps], "openpunctuation": [.ps],
        "pe": [.pe], "closepunctuation": [.pe],
        "pi": [.pi], "initialpunctuation": [.pi],
        "pf": [.pf], "finalpunctuation": [.pf],
        "po": [.po], "otherpunctuation": [.po],
        "p": [.pc, .pd, .ps, .pe, .pi, .pf, .po], "punctuation": [.pc, .pd, .ps, .pe, .pi, .pf, .po],
        "sm": [.sm], "mathsymbol": [.sm],
        "sc": [.sc], "currencysymbol": [.sc],
        "sk": [.sk], "modifiersymbol": [.sk],
        "so": [.so], "othersymbol": [.so],
        "s": [.sm, .sc, .sk, .so], "symbol": [.sm, .sc, .sk, .so],
        "zs": [.zs], "spaceseparator": [.zs],
        "zl": [.zl], "lineseparator": [.zl],
        "zp": [.zp], "paragraphseparator": [.zp],
        "z": [.zs, .zl, .zp], "separator": [.zs, .zl, .zp],
        "cc": [.cc], "control": [.cc],
        "cf": [.cf], "format": [.cf],
        "cs": [.cs], "surrogate": [.cs],
        "co": [.co], "privateuse": [.co],
        "cn": [.cn], "unassigned": [.cn],
        "c": [.cc, .cf, .cs, .co, .cn], "other": [.cc, .cf, .cs, .co, .cn],
        "combiningmark": [.mn, .mc, .me],
    ]

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

    /// Whether `\p{name}` names a category, a group or a script (without building its set).
    static func isKnown(_ name: String) -> Bool {
        let key = loose(name)
        return GeneralCategory.byName[key] != nil || UnicodeTables.isScript(key)
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
    static let word: ScalarSet = UnicodeTables.letters.union(UnicodeTables.categories([.nd, .nl, .no]))
        .union(ScalarSet(scalar: 0x5F))

    /// What a mask's slots hold, and so a `when` condition reads: letters and ASCII digits.
    static let slotCharacters: ScalarSet = UnicodeTables.letters.union(digit)

    /// `slotCharacters` widened to every scalar above ASCII: lengths measured over it bound
    /// those over the slot characters (never tighter), without the letters' table.
    static let slotCharactersBound = ScalarSet([
        ScalarRange(0x30, 0x39), ScalarRange(0x41, 0x5A), ScalarRange(0x61, 0x7A), ScalarRange(0x80, ScalarSet.maxScalar),
    ])

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
