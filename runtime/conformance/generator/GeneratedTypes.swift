/// The field types the vectors use besides the built-in ones: hand-written ones that
/// together use every directive, check kind and option, mask form, normalization step,
/// length unit, date token, relative date, parameter kind and `extends`, and seeded random
/// ones that combine them in ways nobody thought of.
enum GeneratedTypes {
    /// Types without a `pattern`.
    static let plain: [String] = [
        #"""
        field g-spaces
        label "Spaced words"
        help "Words separated by single spaces"
        placeholder "a few words"
        keyboard default
        autocapitalize sentences
        timing typing
        normalize trim collapse-spaces
        length 1...20 as size   message "Use {min} to {max} characters; {value} has the wrong length"
        charset letters marks spaces "'"   message "{value}: letters only"
        """#,
        #"""
        field g-phone
        label "Phone (strip)"
        keyboard phone
        autocomplete tel
        normalize strip " -.()/"
        mask "(000) 000-0000"   message "A phone number has {max} digits"
        checksum verhoeff warning
        """#,
        #"""
        field g-plate
        label "Plate"
        autocapitalize all
        normalize strip-spaces uppercase
        mask "AA00 AAA" as plate   message "Plates look like AB12 CDE"
        """#,
        #"""
        field g-nomask extends g-plate
        label "Plate, any length"
        drop plate
        """#,
        #"""
        field g-lower
        normalize trim lowercase
        one-of "straße" "σοφία" "ǆemal" "ok" "İstanbul" ignore-case
        """#,
        #"""
        field g-options
        keyboard email
        one-of "Red" "Green" "Blue" "Gray-Blue"   message "Not {value}: Red, Green or Blue"
        """#,
        #"""
        field g-capital
        autocapitalize words
        autocomplete name
        normalize trim collapse-spaces capitalize
        length ...40 scalars
        charset letters marks spaces punctuation
        """#,
        #"""
        field g-code
        autocapitalize all
        normalize strip-spaces uppercase
        mask "***-***-**"
        """#,
        #"""
        field g-escaped
        normalize strip-spaces
        mask "\\A\\0-00-\\*A"   message "Use A0-12-*X"
        """#,
        #"""
        field g-unicode-mask
        normalize strip "·"
        mask "00·00😀AA"
        """#,
        #"""
        field g-dotted-date
        label "Date (dd.MM.yyyy)"
        placeholder "DD.MM.YYYY"
        keyboard number-pad
        normalize strip-spaces
        mask "{01-31}.{01-12}.0000"   message "Use DD.MM.YYYY"
        date "dd.MM.yyyy" 1900-01-01...today+1y   message "{value} is no date from {min} to {max}"
        """#,
        #"""
        field g-clock
        keyboard number-pad
        timing typing
        normalize strip-spaces
        mask "{00-23}:{00-59}"
        """#,
        #"""
        field g-day-number
        normalize strip-spaces
        mask "{001-366}/0000"
        length 8 utf16
        """#,
        #"""
        field g-units
        normalize trim
        length 2...8 as graphemes
        length ...10 scalars as scalars
        length ..<12 utf16 as utf16
        length 1<...20 bytes as bytes warning
        """#,
        #"""
        field g-int
        keyboard number-pad
        normalize trim
        integer   message "{value} is not whole"
        range -50..<50
        """#,
        #"""
        field g-dec
        keyboard decimal-pad
        normalize strip-spaces
        decimal places 3
        range -1.5<...1000.25
        """#,
        #"""
        field g-comma
        label "Up to {limit}"
        keyboard decimal-pad
        decimal-separator ","
        param limit = 1000.25
        normalize trim
        decimal places 3
        range -1.5<...$limit   message "{value}: from {min} to {max} (limit {limit})"
        """#,
        #"""
        field g-comma-ranges
        decimal-separator ","
        integer as whole warning
        range ..<10.5 as below-ten
        range 1.1<.. as above warning
        range 0.0...0 as zero warning final
        accept "2,5"
        reject "2.5" below-ten above zero whole
        """#,
        #"""
        field g-comma-point
        decimal-separator "."
        decimal places 1
        range 0...9.9
        """#,
        #"""
        field g-exact
        decimal places 0
        range 16
        """#,
        #"""
        field g-ranges
        timing typing
        decimal
        range ..<10 as below-ten
        range 1.1<.. as above warning
        range ...-5 as negative final warning
        range 0.0...0 as zero warning final
        """#,
        #"""
        field g-iso
        keyboard number-pad
        mask "0000-{01-12}-{01-31}"
        date "yyyy-MM-dd" 2000-02-29...today
        """#,
        #"""
        field g-month
        normalize trim
        date "MM/yyyy" today-6m...today+18m
        """#,
        #"""
        field g-yy
        date "yy" ...today
        """#,
        #"""
        field g-year
        date "yyyy"
        """#,
        #"""
        field g-compact-date
        date "yyyyMMdd" today-30d<..<today+30d
        """#,
        #"""
        field g-short-date
        timing typing
        date "dd.MM.yy" today-1y...today-1d   message "{value}: within the last year, {min} to {max}"
        """#,
        #"""
        field g-kanji-date
        date "yyyy年MM月dd日" today-12y...
        """#,
        #"""
        field g-luhn
        normalize strip " -"
        checksum luhn
        """#,
        #"""
        field g-mod97
        normalize strip-spaces
        checksum mod97
        """#,
        #"""
        field g-gtin
        checksum gtin
        """#,
        #"""
        field g-isbn10
        normalize strip "-"
        checksum isbn10
        """#,
        #"""
        field g-isbn
        normalize strip " -" uppercase
        checksum isbn
        """#,
        #"""
        field g-verhoeff
        checksum verhoeff   message "{value}: a digit is wrong"
        """#,
        #"""
        field g-digits
        charset digits
        """#,
        #"""
        field g-punct
        charset punctuation marks "€$"
        """#,
        #"""
        field g-alnum
        charset alphanumerics spaces
        """#,
        #"""
        field g-messages
        param limit = 5
        length ...$limit   message "{value} {min}-{max} {limit} {unknown} {value}{value} }{ {} {{value}} {"
        """#,
        #"""
        field g-params
        param min = 2
        param max = 12
        param places = 2
        param low = -10.5
        param high = 99.990
        param word = "hello"
        length $min...$max   message "{word}: {min} to {max}"
        decimal places $places   message "{places} places at most"
        range $low<..<$high   message "{value} is not above {low} and below {high}"
        """#,
        #"""
        field g-period
        param from = "2000-01-01"
        param to = "today+1y"
        date "yyyy-MM" $from...$to   message "From {from} to {to} ({min} to {max})"
        """#,
        #"""
        field g-pin
        label "PIN"
        keyboard number-pad
        secure
        normalize strip-spaces
        length 4...6   message "{value} needs {min} to {max} digits"
        charset digits   message "{value} is not digits"
        """#,
        #"""
        field g-base
        label "Base"
        normalize trim
        length 1...30
        charset letters digits spaces
        """#,
        #"""
        field g-mid extends g-base
        label "Mid"
        autocapitalize all
        normalize uppercase
        length 3...10
        """#,
        #"""
        field g-leaf extends g-mid
        timing submit
        drop charset
        mask "AAA-000"   message "Leaf codes look like ABC-123"
        """#,
        #"""
        field g-flags
        keyboard url
        autocapitalize never
        timing leaving
        normalize trim
        length 3... as min-length final   message "At least {min}"
        length ...6 as max-length warning
        integer warning
        """#,
        #"""
        field g-secret-mask extends g-phone
        secure
        """#,
    ]

    /// Types with patterns and masks chosen by patterns (formulary.js runs the automata the
    /// export carries for them).
    static let patterns: [String] = [
        ##"""
        field p-brand
        label "Brand card"
        normalize strip " -"
        mask "0000 000000 00000" when /3[47].*/   message "Amex: {value}"
        mask "00 00 00" when /[0-9]{2}x?/i
        mask "AAA-000" when /[a-z] [a-z]*/xi  as code
        mask "0000 0000 0000 0000"
        pattern /(?:4|5[1-5]|3[47]|[a-c]).*/i as brand
        checksum luhn
        accept "378282246310005"
        accept "4111111111111111"
        """##,
        ##"""
        field p-words
        timing typing
        normalize trim lowercase
        pattern /[a-z]+(?:-[a-z]+)*/   message "Lower-case words joined by hyphens, not {value}"
        pattern /\p{L}.{2,}/ as long warning
        """##,
        ##"""
        field p-hex
        pattern /\# [0-9a-f]{3} (?:[0-9a-f]{3})?/xi
        accept "#fff"
        accept "#1E90FF"
        """##,
        ##"""
        field p-every
        pattern /(?:ab|cd)*e?/ as every
        pattern /.*/ as anything
        pattern /[^x]*/ as no-x final
        accept "abcde"
        """##,
        ##"""
        field p-unicode
        normalize trim
        pattern /[\p{L}\p{M}]+(?: [\p{L}\p{M}]+)*/   message "Letters and single spaces"
        length ...12
        """##,
        ##"""
        field p-login
        timing typing
        normalize trim
        pattern /[a-z0-9]{3,20}/i   message "3 to 20 letters or digits"
        pattern not /admin|root|guest[0-9]*/i as reserved   message "{value} is reserved"
        accept "ada"
        accept "administrator"
        accept live "guest4"
        reject "Admin" reserved
        """##,
        ##"""
        field p-emptied
        normalize strip "-"
        pattern /[0-9]{3}/ as three
        pattern not /.*/ as anything warning
        pattern /[^\s\S]/ as never warning
        accept "123"
        accept "1-2-3"
        """##,
        ##"""
        field p-scripts
        normalize trim
        pattern /\p{Greek}+|k+|\p{Han}{2}/i
        accept "αβγ"
        accept "KkK"
        accept "日本"
        """##,
        ##"""
        field p-nfa
        timing typing
        pattern /[ab]*a[ab]{13}/   message "An a, then 13 more a's or b's at the end"
        pattern not /[ab]*b[ab]{13}/ as no-late-b
        accept "aaaaaaaaaaaaaa"
        accept "babababababaaaaaaaaaaaaa"
        reject "ab" pattern
        """##,
        ##"""
        field p-only-when
        normalize strip-spaces
        mask "00-00" when /1.*/
        mask "000.000" when /[2-9].*/
        accept "12-34"
        accept "234.567"
        """##,
        // `mask-one-of` (names and a parameter), masks named with `as`, and checks kept by `if`.
        ##"""
        field p-brands
        label "Brands"
        param brands = "four five"
        param region = "x"
        normalize strip " -"
        mask "0000 0000" when /4.*/ as four   message "Four: {value}"
        mask "0000-0000" when /5[0-9]{7}/ as five
        mask "00 00 00" when /5.*/ as five
        mask "AAA 000" when /[a-c].*/i as letters
        mask "0000 0000 0000" as other
        mask-one-of $brands as brand   message "Not {brands}: {value}"
        mask-one-of "four" "letters" as four-or-letters warning
        length 6... if $region = "y" as long-y
        pattern /[0-9]*/ if $region = "x" as digits-x   message "Digits for {region}"
        range 0...99999999 if $region = "z" final
        mask-one-of "other" if $region = "z" as other-z
        accept "4111 1111"
        accept "5111-1111"
        accept live "5"
        reject "a12" brand
        """##,
        ##"""
        field p-brands-sub extends p-brands
        param brands = "letters other"
        param region = "y"
        """##,
        ##"""
        field p-unnamed
        normalize strip-spaces
        mask "00-00" when /1.*/
        mask "000.000" when /[2-9].*/ as high
        mask-one-of "mask"   message "Only numbers starting with 1"
        """##,
        ##"""
        field p-secret-brands
        secure
        normalize strip-spaces
        mask "0000 0000" when /4.*/ as four
        mask "000 000" as rest
        mask-one-of "four"
        """##,
        ##"""
        field p-drop-named
        normalize strip-spaces
        mask "00/00" when /[0-5].*/ as low
        mask "000/000" as high
        drop high
        mask-one-of "low" "high" as any-mask
        mask-one-of "high" as high-only warning
        """##,
        ##"""
        field p-only-if
        param mode = "digits"
        normalize trim
        length 2...8 if $mode = "digits" as short
        integer if $mode = "digits"
        charset letters if $mode = "letters"
        one-of "ab" "abc" "xyz" if $mode = "letters" as word
        date "yyyy-MM-dd" if $mode = "date"
        checksum luhn if $mode = "digits" warning
        """##,
    ]

    // MARK: Random types

    static let maskPieces = ["0", "0", "0", "A", "A", "*", "-", " ", "/", ".", "(", ")", "\\\\0", "\\\\A", "·", "{01-12}", "{00-59}", "{1-9}", "x", "Ω"]
    static let steps = ["trim", "collapse-spaces", "strip-spaces", "strip \" -./\"", "uppercase", "lowercase", "capitalize"]
    static let units = ["", " graphemes", " scalars", " utf16", " bytes"]
    static let charsetClasses = ["digits", "letters", "marks", "spaces", "punctuation", "alphanumerics", "\"-'\"", "\"€ß\""]
    static let dateFormats = ["yyyy-MM-dd", "dd/MM/yyyy", "MM/yy", "yy", "yyyy", "MM-yyyy", "dd.MM.yy", "yyyyMMdd", "MMyy"]
    static let dateBounds = ["2000-01-01", "1999-12-31", "2024-02-29", "today", "today-12y", "today+12y", "today-6m",
                             "today+3m", "today-30d", "today+45d", "today-1d"]
    static let rangeForms = ["A...B", "A..<B", "A...", "...B", "..<B", "A<...B", "A<..", "A<..<B", "A"]

    static let patternAtoms = ["[0-9]", "[0-9]", "[a-c]", "a", "b", "x", "\\d", "\\w", "[^0-9]", ".", "(?:ab|c)", "[A-Z]",
                               "\\p{L}", "\\s", "-", " ", "[0-9a-f]", "ß", "Ω", "[^\\s]"]
    static let quantifiers = ["", "", "", "?", "*", "+", "{2}", "{1,3}", "{2,}"]

    /// A random pattern of the dialect: one or two alternatives of quantified atoms, with flags.
    static func pattern(_ random: inout SeededRandom) -> String {
        var alternatives: [String] = []
        for _ in 0..<(random.chance(0.25) ? 2 : 1) {
            var sequence = ""
            for _ in 0..<random.int(1...5) { sequence += random.pick(patternAtoms) + random.pick(quantifiers) }
            alternatives.append(sequence)
        }
        return "/" + alternatives.joined(separator: "|") + "/" + random.pick(["", "", "", "", "i", "x", "ix"])
    }

    /// A range in one of the language's spellings, with bounds from `lower`/`upper` (A <= B).
    static func range(_ random: inout SeededRandom, _ lower: String, _ upper: String) -> String {
        random.pick(rangeForms).replacingOccurrences(of: "A", with: lower).replacingOccurrences(of: "B", with: upper)
    }

    /// A random but loadable-looking type: some normalization, perhaps a mask (and masks
    /// chosen by a pattern), one to four checks (patterns among them) with random options.
    /// Types that do not load are dropped by the caller.
    static func random(_ index: Int, _ random: inout SeededRandom) -> String {
        var lines = ["field r-\(index)"]
        if random.chance(0.3) { lines.append("label \"Random \(index)\"") }
        if random.chance(0.3) { lines.append("timing " + random.pick(["typing", "leaving", "submit"])) }
        if random.chance(0.1) { lines.append("secure") }
        if random.chance(0.2) { lines.append("decimal-separator \",\"") }
        // Sometimes a string parameter that checks' `if` read (`r-N(v: "b")` is used too).
        let conditional = random.chance(0.2)
        if conditional { lines.append("param v = \"a\"") }
        var normalize: [String] = []
        for _ in 0..<random.int(0...3) { normalize.append(random.pick(steps)) }
        if !normalize.isEmpty { lines.append("normalize " + normalize.joined(separator: " ")) }
        var maskNames: [String] = []
        if random.chance(0.4) {
            // Sometimes masks chosen by a pattern before the last one.
            let chosen = random.chance(0.25) ? random.int(1...2) : 0
            for k in 0...chosen {
                var pattern = ""
                for _ in 0..<random.int(1...9) { pattern += random.pick(maskPieces) }
                var line = "mask \"\(pattern)\""
                if k < chosen { line += " when " + Self.pattern(&random) }
                var name = "mask"
                if random.chance(0.3) { name = random.pick(["fill", "m1", "m2"]); line += " as " + name }
                maskNames.append(name)
                if random.chance(0.3) { line += " message \"Use \(pattern.replacingOccurrences(of: "\\", with: "")): {value} ({min})\"" }
                if random.chance(0.1) { line += " warning" }
                if random.chance(0.1) { line += " final" }
                lines.append(line)
            }
        }
        var used: Set<String> = []
        for _ in 0..<random.int(1...4) {
            var check: String
            var keyword: String
            switch random.int(0...(maskNames.isEmpty ? 9 : 10)) {
            case 0:
                let a = random.int(0...6), b = a + random.int(0...12)
                check = "length " + range(&random, String(a), String(b)) + random.pick(units)
                keyword = "length"
            case 1: check = "integer"; keyword = "integer"
            case 2:
                check = "decimal" + (random.chance(0.6) ? " places \(random.int(0...3))" : "")
                keyword = "decimal"
            case 3:
                let bounds = ["-100", "-1.5", "0", "0.5", "1", "9.99", "10", "18", "99", "1000", "123456789012345678901"]
                let i = random.below(bounds.count), j = min(bounds.count - 1, i + random.int(1...4))
                check = "range " + range(&random, bounds[i], bounds[j])
                keyword = "range"
            case 4:
                var classes: [String] = []
                for _ in 0..<random.int(1...3) { classes.append(random.pick(charsetClasses)) }
                check = "charset " + classes.joined(separator: " ")
                keyword = "charset"
            case 5:
                let options = ["A", "AB", "Abc", "abc", "ß", "STRASSE", "42", "4", "x-y", "Ωmega"]
                var chosen: [String] = []
                for _ in 0..<random.int(1...4) { chosen.append("\"" + random.pick(options) + "\"") }
                check = "one-of " + chosen.joined(separator: " ") + (random.chance(0.5) ? " ignore-case" : "")
                keyword = "one-of"
            case 6:
                check = "date \"\(random.pick(dateFormats))\""
                if random.chance(0.7) {
                    let i = random.below(dateBounds.count), j = random.below(dateBounds.count)
                    check += " " + range(&random, dateBounds[min(i, j)], dateBounds[max(i, j)])
                }
                keyword = "date"
            case 7:
                let algorithm = random.pick(["luhn", "mod97", "gtin", "isbn10", "isbn", "verhoeff"])
                check = "checksum " + algorithm
                keyword = algorithm
            case 8:
                check = "length " + range(&random, String(random.int(1...4)), String(random.int(5...30)))
                keyword = "length"
            case 9:
                let negate = random.chance(0.3)
                check = (negate ? "pattern not " : "pattern ") + Self.pattern(&random)
                keyword = "pattern"
            default:
                let names = Array(Set(maskNames)).sorted()
                var picked: [String] = []
                for _ in 0..<random.int(1...2) { picked.append("\"" + random.pick(names) + "\"") }
                check = "mask-one-of " + picked.joined(separator: " ")
                keyword = "mask-one-of"
            }
            if conditional && random.chance(0.5) { check += " if $v = \"" + random.pick(["a", "b"]) + "\"" }
            if used.contains(keyword) || random.chance(0.2) {
                let name = "c\(used.count)"
                check += " as " + name
                keyword = name
            }
            used.insert(keyword)
            if random.chance(0.3) { check += " message \"{value} fails \(keyword) ({min}..{max})\"" }
            if random.chance(0.15) { check += " warning" }
            if random.chance(0.15) { check += " final" }
            lines.append(check)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
