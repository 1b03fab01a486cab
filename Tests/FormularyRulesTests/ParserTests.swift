import Testing
@testable import FormularyRules

@Suite struct ParserTests {
    static let creditCard = """
        # plugins/credit-card.field
        field credit-card
        label "Credit Card Number"
        help "16 digits, grouped in fours"
        placeholder "0000 0000 0000 0000"
        keyboard number-pad

        normalize strip " -"
        mask "0000 0000 0000 0000"   message "Card number is incomplete"
        checksum luhn                 message "Card number is not valid"

        accept "4111 1111 1111 1111"
        accept "4111111111111111" formats "4111 1111 1111 1111"
        reject "4111 1111 1111 1112" luhn
        reject live "4111 1111 1111 11111" mask
        """

    @Test func specExampleParses() throws {
        let decl = try #require(declaration(Self.creditCard, file: "plugins/credit-card.field"))
        #expect(decl.name == "credit-card")
        #expect(decl.base == nil)
        #expect((decl.location.line, decl.location.column) == (2, 7))
        let def = try #require(resolvedField(Self.creditCard)).strippingLocations()
        #expect(def.label == "Credit Card Number")
        #expect(def.help == "16 digits, grouped in fours")
        #expect(def.placeholder == "0000 0000 0000 0000")
        #expect(def.keyboard == .numberPad)
        #expect(def.normalization == [.strip(" -")])
        #expect(def.mask == MaskRule(pattern: "0000 0000 0000 0000",
                                     options: RuleOptions(name: "mask", message: "Card number is incomplete",
                                                          location: noLocation)))
        #expect(def.checks == [CheckRule(kind: .checksum(.luhn),
                                         options: RuleOptions(name: "luhn", message: "Card number is not valid",
                                                              location: noLocation))])
        #expect(def.examples.map(\.value) == ["4111 1111 1111 1111", "4111111111111111",
                                              "4111 1111 1111 1112", "4111 1111 1111 11111"])
        #expect(def.examples.map(\.live) == [false, false, false, true])
        #expect(def.examples.map(\.expectation) == [
            .accept(formats: nil), .accept(formats: "4111 1111 1111 1111"),
            .reject(rules: ["luhn"]), .reject(rules: ["mask"]),
        ])
    }

    @Test func descriptiveDirectives() throws {
        let def = try #require(resolvedField("""
            field x
            keyboard email
            autocapitalize sentences
            secure
            """))
        #expect(def.keyboard == .email)
        #expect(def.autocapitalize == .sentences)
        #expect(def.secure)
        for keyboard in Keyboard.allCases {
            #expect(resolvedField("field x\nkeyboard \(keyboard.rawValue)")?.keyboard == keyboard)
        }
        for value in Autocapitalize.allCases {
            #expect(resolvedField("field x\nautocapitalize \(value.rawValue)")?.autocapitalize == value)
        }
    }

    @Test func parametersTakeTheKindOfTheirDefault() throws {
        let def = try #require(resolvedField("""
            field x
            param a = 10
            param b = -0.5
            param c = "today-18y"
            """))
        #expect(def.parameters.map(\.defaultValue) == [.integer("10"), .decimal("-0.5"), .string("today-18y")])
        #expect(def.parameters.map(\.name) == ["a", "b", "c"])
    }

    @Test func normalizationSteps() {
        let def = resolvedField("""
            field x
            normalize trim collapse-spaces strip-spaces
            normalize strip "()-." uppercase lowercase capitalize
            """)
        #expect(def?.normalization == [.trim, .collapseSpaces, .stripSpaces, .strip("()-."), .uppercase,
                                       .lowercase, .capitalize])
    }

    @Test func everyCheck() {
        let kinds = checks("""
            field x
            param p = 2
            length 2...60 bytes
            integer
            decimal
            decimal places 3 as three
            decimal places $p as p
            range -1.5..<$p
            pattern /[a-z]+/i
            pattern not /admin/i as not-admin
            charset digits letters marks spaces punctuation alphanumerics "+-"
            one-of "a" "B" ignore-case
            one-of "c" as c
            date "yyyy-MM-dd" 2000-01-01...today+1y
            date "MM/yy" as expiry
            checksum luhn
            checksum mod97
            """)
        #expect(kinds == [
            .length(RangeSpec(lower: .value(2), upper: .value(60), upperInclusive: true), .bytes),
            .integer,
            .decimal(places: nil),
            .decimal(places: .value(3)),
            .decimal(places: .parameter("p", noLocation)),
            .range(RangeSpec(lower: .value(DecimalLiteral("-1.5")), upper: .parameter("p", noLocation),
                             upperInclusive: false)),
            .pattern(source: "[a-z]+", flags: .caseInsensitive),
            .pattern(source: "admin", flags: .caseInsensitive, negated: true),
            .charset([.digits, .letters, .marks, .spaces, .punctuation, .alphanumerics, .literal("+-")]),
            .oneOf(["a", "B"], ignoreCase: true),
            .oneOf(["c"], ignoreCase: false),
            .date(format: "yyyy-MM-dd", range: RangeSpec(lower: .value(.absolute(year: 2000, month: 1, day: 1)),
                                                         upper: .value(.today(offset: 1, unit: .years)),
                                                         upperInclusive: true)),
            .date(format: "MM/yy", range: nil),
            .checksum(.luhn),
            .checksum(.mod97),
        ])
    }

    @Test func lengthUnits() {
        for unit in LengthUnit.allCases {
            let spelled = unit == .graphemes && Bool.random() ? "" : " " + unit.rawValue
            #expect(checks("field x\nlength 5\(spelled)") == [
                .length(RangeSpec(lower: .value(5), upper: .value(5), upperInclusive: true), unit),
            ])
        }
    }

    @Test func everyRangeSpelling() {
        func range(_ text: String) -> RangeSpec<DecimalLiteral>? {
            guard case .range(let spec)? = checks("field x\nrange \(text)").first else { return nil }
            return spec
        }
        func d(_ s: String) -> Arg<DecimalLiteral> { .value(DecimalLiteral(s)) }
        #expect(range("2...60") == RangeSpec(lower: d("2"), upper: d("60"), upperInclusive: true))
        #expect(range("0..<100") == RangeSpec(lower: d("0"), upper: d("100"), upperInclusive: false))
        #expect(range("18...") == RangeSpec(lower: d("18"), upper: nil, upperInclusive: true))
        #expect(range("...160") == RangeSpec(lower: nil, upper: d("160"), upperInclusive: true))
        #expect(range("..<10") == RangeSpec(lower: nil, upper: d("10"), upperInclusive: false))
        #expect(range("16") == RangeSpec(lower: d("16"), upper: d("16"), upperInclusive: true))
        #expect(range("0<...100") == RangeSpec(lower: d("0"), lowerExclusive: true, upper: d("100"), upperInclusive: true))
        #expect(range("1.1<..") == RangeSpec(lower: d("1.1"), lowerExclusive: true, upper: nil, upperInclusive: true))
        #expect(range("0<..<1") == RangeSpec(lower: d("0"), lowerExclusive: true, upper: d("1"), upperInclusive: false))
        #expect(range("1.1<...") == RangeSpec(lower: d("1.1"), lowerExclusive: true, upper: nil, upperInclusive: true))
    }

    @Test func malformedRanges() {
        #expect(ids("field x\nrange ...") == ["invalid-range"])
        #expect(ids("field x\nrange 1..<") == ["invalid-range"])
        #expect(ids("field x\nrange <...5") == ["invalid-range"])
        #expect(ids("field x\nrange 0<..5") == ["invalid-range"])
        #expect(ids("field x\nrange") == ["missing-argument"])
        #expect(ids("field x\nlength 1.5...3") == ["invalid-range"])
        #expect(ids("field x\nlength -1...3") == ["invalid-range"])
        #expect(ids("field x\nlength today...") == ["invalid-range"])
        #expect(ids("field x\nrange 2000-01-01...") == ["invalid-range"])
        #expect(ids("field x\ndate \"yyyy\" 5...") == ["invalid-range"])
    }

    @Test func modifiersInAnyOrder() {
        let def = resolvedField("""
            field x
            length 1...3 final warning message "short {max}" as short
            pattern /a/ as a-only message "only a"
            mask "00" warning
            """)?.strippingLocations()
        #expect(def?.checks.map(\.options) == [
            RuleOptions(name: "short", severity: .warning, message: "short {max}", finalOnly: true, location: noLocation),
            RuleOptions(name: "a-only", message: "only a", location: noLocation),
        ])
        #expect(def?.mask?.options == RuleOptions(name: "mask", severity: .warning, location: noLocation))
        #expect(ids("field x\ninteger warning warning") == ["duplicate-modifier"])
        #expect(ids("field x\ninteger mesage \"x\"") == ["unexpected-token"])
        #expect(parseText("field x\ninteger mesage \"x\"").diagnostics.first?.text.contains("did you mean 'message'?") == true)
        #expect(ids("field x\ninteger as Bad") == ["invalid-name"])
        #expect(ids("field x\ninteger message") == ["missing-argument"])
    }

    @Test func examples() {
        let def = resolvedField("""
            field x
            pattern /a+/ as letters
            length 1...3
            accept "a"
            accept live "aa" formats "aa"
            reject "b" letters
            reject live "aaaa" letters length
            """)
        #expect(def?.examples.map(\.expectation) == [
            .accept(formats: nil), .accept(formats: "aa"), .reject(rules: ["letters"]),
            .reject(rules: ["letters", "length"]),
        ])
        #expect(def?.examples.map(\.live) == [false, true, false, true])
        #expect(ids("field x\nreject \"b\"") == ["missing-argument"])
        #expect(ids("field x\naccept \"b\" formats") == ["missing-argument"])
        #expect(ids("field x\naccept b") == ["unexpected-token"])
    }

    @Test func extendsAndDrop() throws {
        let decl = try #require(declaration("field visa extends credit-card\ndrop luhn\nlength $n"))
        #expect(decl.base == "credit-card")
        #expect((decl.baseLocation?.line, decl.baseLocation?.column) == (1, 20))
        #expect(decl.lines.map(\.directive).first == .drop(rule: "luhn"))
        // Unknown parameters in a derived type are left to the resolver.
        #expect(decl.parameterReferences.map(\.declaredEarlier) == [false])
        #expect(ids("field visa extnds credit-card") == ["unexpected-token"])
        #expect(ids("field visa extends") == ["missing-argument"])
    }

    @Test func parameterReferences() {
        #expect(ids("field x\nlength $n...") == ["unknown-parameter"])
        #expect(ids("field x\nlength $n...\nparam n = 3") == ["unknown-parameter"])
        #expect(ids("field x\nparam min = 1\nlength $mni...") == ["unknown-parameter"])
        #expect(parseText("field x\nparam min = 1\nlength $mni...").diagnostics.first?.text
                    .contains("did you mean 'min'?") == true)
        #expect(ids("field x\nparam n = 3\nlength $n...") == [])
        #expect(ids("field x\nparam m = \"x\"\nlabel $m") == ["parameter-not-allowed"])
        #expect(ids("field x\nparam n = 1\nparam n = 2") == ["duplicate-parameter"])
        #expect(ids("field x\nparam n 1") == ["unexpected-token"])
        #expect(ids("field x\nparam n = today") == ["unexpected-token"])
    }

    @Test func strip() {
        #expect(ids("field x\nnormalize strip \"a-\"") == ["invalid-strip"])
        #expect(ids("field x\nnormalize strip \"7\"") == ["invalid-strip"])
        #expect(ids("field x\nnormalize strip \"é\"") == ["invalid-strip"])
        #expect(ids("field x\nnormalize strip \"\"") == ["invalid-strip"])
        #expect(ids("field x\nnormalize strip") == ["missing-argument"])
        #expect(ids("field x\nnormalize") == ["missing-argument"])
        #expect(ids("field x\nnormalize trm") == ["unknown-normalize-step"])
    }

    @Test func masks() {
        #expect(ids("field x\nmask \"-\"") == ["invalid-mask"])
        #expect(ids("field x\nmask \"00\\\\\"") == ["invalid-mask"])
        #expect(ids("field x\nmask \"\\\\0\\\\A\"") == ["invalid-mask"])
        // Several masks are a list (the compiler warns about unreachable ones).
        #expect(ids("field x\nmask \"0\"\nmask \"00\"").isEmpty)
        #expect(ids("field x\nmask \"0\" when 3") == ["unexpected-token"])
        #expect(ids("field x\nmask \"0\" as a\nlength 1 as a") == ["duplicate-rule"])
        #expect(ids("field x\nmask 00") == ["unexpected-token"])
    }

    @Test func duplicates() {
        #expect(ids("field x\nlabel \"a\"\nlabel \"b\"") == ["duplicate-directive"])
        #expect(ids("field x\nsecure\nsecure") == ["duplicate-directive"])
        #expect(ids("field x\nlength 1\nlength 2") == ["duplicate-rule"])
        #expect(ids("field x\nlength 1\npattern /a/ as length") == ["duplicate-rule"])
        #expect(ids("field x\nlength 1\nlength 2 as other") == [])
        #expect(ids("field x\nlength 1\ndrop length\nlength 2") == [])
        #expect(ids("field x\nfield y") == ["duplicate-header"])
    }

    @Test func otherChecksErrors() {
        #expect(ids("field x\npattern \"a\"") == ["unexpected-token"])
        #expect(ids("field x\ncharset") == ["missing-argument"])
        #expect(ids("field x\ncharset digts") == ["unknown-charset-class"])
        #expect(ids("field x\ncharset \"\"") == ["unknown-charset-class"])
        #expect(ids("field x\none-of") == ["missing-argument"])
        #expect(ids("field x\none-of \"a\" ignorecase") == ["unexpected-token"])
        #expect(ids("field x\ndate \"MM-dd\"") == ["invalid-date-format"])
        #expect(ids("field x\ndate \"yyyy-dd\"") == ["invalid-date-format"])
        #expect(ids("field x\ndate") == ["missing-argument"])
        #expect(ids("field x\nchecksum lunh") == ["unknown-checksum"])
        #expect(ids("field x\ndecimal places") == ["missing-argument"])
        #expect(ids("field x\ndecimal places 1.5") == ["unexpected-token"])
        #expect(ids("field x\ninteger 5") == ["unexpected-token"])
        #expect(ids("field x\nkeyboard numpad") == ["unknown-keyboard"])
        #expect(ids("field x\nautocapitalize none") == ["unknown-autocapitalize"])
        #expect(ids("field x\nlength 1...3 graphems") == ["unknown-length-unit"])
        #expect(ids("field x\nlabel") == ["missing-argument"])
        #expect(ids("field x\nlabel \"a\" \"b\"") == ["unexpected-token"])
        #expect(ids("field x\nsecure yes") == ["unexpected-token"])
        #expect(ids("field x\n\"label\"") == ["unexpected-token"])
        #expect(ids("field x\ndrop") == ["missing-argument"])
    }

    @Test func messagesSayWhatWasExpected() {
        func message(_ line: String) -> String? { parseText("field x\n" + line).diagnostics.first?.text }
        #expect(message("lenght 1") == "unknown directive 'lenght'; did you mean 'length'?")
        #expect(message("length 1 graphems") == "unknown length unit 'graphems'; did you mean 'graphemes'?")
        #expect(message("normalize trm") == "unknown normalization step 'trm'; did you mean 'trim'?")
        #expect(message("charset digts") == "unknown charset class 'digts'; did you mean 'digits'?")
        #expect(message("checksum lunh") == "unknown checksum algorithm 'lunh'; did you mean 'luhn'?")
        #expect(message("keyboard emial") == "unknown keyboard 'emial'; did you mean 'email'?")
        #expect(message("keyboard qwerty") == "unknown keyboard 'qwerty'; expected 'default', 'number-pad', 'decimal-pad', 'email', 'phone' or 'url'")
        #expect(message("length") == "expected a range such as 1...100, 18... or ...160 after 'length'")
        #expect(message("label \"a\" b") == "unexpected 'b' after 'label'; expected the end of the line")
        #expect(message("frobnicate") == "unknown directive 'frobnicate'; expected a directive such as 'label', 'param', 'normalize', 'mask', 'length', 'pattern' or 'accept'")
        #expect(message("normalize strip \"a\"")?.contains("never throws away letters or digits") == true)
    }

    @Test func names() {
        #expect(ids("field Credit") == ["invalid-name"])
        #expect(ids("field 9lives") == ["invalid-number"])
        #expect(ids("field (") == ["unexpected-token"])
        #expect(ids("field a_b") == ["invalid-name"])
        #expect(ids("field " + String(repeating: "a", count: 64)) == [])
        #expect(ids("field " + String(repeating: "a", count: 65)) == ["invalid-name"])
        #expect(parseText("field " + String(repeating: "a", count: 65)).diagnostics.first?.message
                    .contains("longer than 64") == true)
    }

    @Test func headers() {
        #expect(ids("") == ["missing-header"])
        #expect(ids("# only a comment\n") == ["missing-header"])
        #expect(ids("label \"x\"\nrnage 1") == ["missing-header", "unknown-directive"])
        #expect(ids("feild x\nlabel \"x\"") == ["missing-header"])
        #expect(parseText("feild x").diagnostics.first?.text.contains("did you mean 'field'?") == true)
        if case .none = parseText("label \"x\"").content {} else { Issue.record("expected no content") }
        #expect(ids("same a b", file: "f.form") == ["missing-header"])
        // A broken first line does not hide the header after it.
        let outcome = PluginSource.parse(bytes: [0x23, 0xFF, 0x0A] + Array("field x\nlabel \"X\"".utf8), file: "u.field")
        #expect(outcome.diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        if case .field(let decl) = outcome.content { #expect(decl.name == "x") } else { Issue.record("no decl") }
    }

    @Test func everyErrorOfAFileIsReported() {
        let outcome = parseText("""
            field age
            param min = 0
            lable "Age"
            rnage $min...$max
            keyboard numberpad
            length 1...3 graphems
            normalize trim "x"
            """)
        #expect(outcome.diagnostics.map(\.id.rawValue) == [
            "unknown-directive", "unknown-directive", "unknown-keyboard", "unknown-length-unit",
            "unexpected-token",
        ])
        #expect(outcome.diagnostics.map(\.location.line) == [3, 4, 5, 6, 7])
        #expect(outcome.hasErrors)
        // The good lines still make a declaration.
        guard case .field(let decl) = outcome.content else { Issue.record("no decl"); return }
        #expect(decl.hasErrors)
        #expect(decl.lines.count == 1)
    }

    @Test func lexicalErrorsSkipOnlyTheirLine() {
        let outcome = parseText("field x\nlabel \"bad \\q\"\nrnage 1\nhelp \"ok\"")
        #expect(outcome.diagnostics.map(\.id.rawValue) == ["invalid-escape", "unknown-directive"])
        guard case .field(let decl) = outcome.content else { Issue.record("no decl"); return }
        #expect(decl.lines.map(\.directive) == [.help("ok")])
    }

    @Test func continuationInsideADirective() {
        let kinds = checks("field x\nlength \\\n  1...3 \\\n  bytes \\\n  message \"m\"")
        #expect(kinds == [.length(RangeSpec(lower: .value(1), upper: .value(3), upperInclusive: true), .bytes)])
    }
}
