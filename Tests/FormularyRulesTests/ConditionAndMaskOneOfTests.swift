import Testing
@testable import FormularyRules

/// Checks kept by a parameter (`… if $region = "GB"`), masks named in results
/// (`FieldResult.mask`) and `mask-one-of`: the language, the canonical text, compiling with
/// arguments, arguments refused, and both stages.
@Suite struct ConditionAndMaskOneOfTests {
    static let phone = """
        field tel
        param region = ""
        normalize strip-spaces
        pattern /\\+[0-9]{7,15}/
        pattern /\\+44[0-9]{9,10}/ if $region = "GB" as in-gb message "A UK number is +44 and 9 or 10 digits"
        pattern /\\+1[0-9]{10}/ if $region = "US" as in-us
        length ...12 if $region = "US" as short
        accept "+4420794609"
        reject "+44 123" pattern
        """

    static let card = """
        field card
        param brands = "amex visa"
        normalize strip " -"
        mask "0000 000000 00000" when /3[47].*/ as amex message "Amex: 15 digits"
        mask "0000 0000 0000 0000" when /4.*/ as visa message "Visa: 16 digits"
        mask-one-of $brands as brand message "Not a card we take"
        accept "4111111111111111" formats "4111 1111 1111 1111"
        reject "5500000000000004" brand
        """

    @Test func conditionsParsePrintAndReadBack() throws {
        let d = try #require(resolvedField(Self.phone))
        let gb = try #require(d.checks.first { $0.options.name == "in-gb" })
        #expect(gb.options.condition?.parameter == "region" && gb.options.condition?.value == "GB")
        #expect(d.checks.first { $0.options.name == "pattern" }?.options.condition == nil)
        #expect(d.canonicalSource.contains(#"pattern /\+44[0-9]{9,10}/ if $region = "GB" as in-gb message "A UK number is +44 and 9 or 10 digits""#))
        #expect(d.canonicalSource.contains(#"length ...12 if $region = "US" as short"#))
        let again = try #require(resolvedField(d.canonicalSource)).strippingLocations()
        #expect(again == d.strippingLocations())
        #expect(d.parameterChoices == ["region": ["", "GB", "US"]])
        // A type without conditions prints as before (its version does not change).
        let plain = try #require(resolvedField("field p\npattern /a/ as x\n"))
        #expect(plain.canonicalSource == "field p\npattern /a/ as x\n")
    }

    @Test func onlyTheChecksWhoseConditionHoldsRun() throws {
        let d = try #require(resolvedField(Self.phone))
        let any = try compile(d)
        #expect(any.failed("+4412345").isEmpty)
        #expect(any.failed("+123456789012").isEmpty)
        let gb = try compile(d, ["region": .string("GB")])
        #expect(gb.failed("+4412345") == ["in-gb"])
        #expect(gb.failed("+442079460958").isEmpty)
        #expect(gb.failed("+12025550143") == ["in-gb"])
        #expect(gb.validate("+4412345", stage: .final).violations.first?.message == "A UK number is +44 and 9 or 10 digits")
        // Live, the kept check judges prefixes as any check does; the others never fail.
        #expect(gb.live("+1") == .invalid)
        #expect(gb.live("+44") == .incomplete)
        let us = try compile(d, ["region": .string("US")])
        #expect(us.failed("+442079460958") == ["in-us", "short"])
        #expect(us.failed("+12025550143").isEmpty)
    }

    @Test func aValueNoConditionNamesIsRefused() throws {
        let d = try #require(resolvedField(Self.phone))
        #expect(diagnosticIDs(d, ["region": .string("FR")]) == ["argument-kind"])
        let catalog = try FieldCatalog.builtin(today: testToday).adding(source: Self.phone, file: "tel.field")
        #expect(throws: FormularyError.self) { try catalog.fieldType(#"tel(region: "FR")"#) }
        let message = try #require(throws: FormularyError.self) { try catalog.fieldType(#"tel(region: "gb")"#) }
        #expect(message.description.contains(#"takes one of "", "GB", "US"; found the string "gb"; did you mean "GB"?"#))
        #expect(try catalog.fieldType(#"tel(region: "US")"#).failed("+44123456789") == ["in-us"])
        // In a form, the same error at the field's type.
        let form = "form f\nfield phone tel(region: \"XX\")\n"
        #expect(throws: FormularyError.self) { try catalog.form(source: form, file: "f.form") }
    }

    @Test func conditionsAreForChecksAndStringParametersOnly() {
        #expect(ids("field t\nparam r = \"\"\nmask \"00\" if $r = \"a\"\n") == ["unexpected-token"])
        #expect(ids("field t\nparam r = \"\"\npattern /a/ if r = \"a\"\n") == ["unexpected-token"])
        #expect(ids("field t\nparam r = \"\"\npattern /a/ if $r \"a\"\n") == ["unexpected-token"])
        #expect(ids("field t\nparam r = \"\"\npattern /a/ if $q = \"a\"\n") == ["unknown-parameter"])
        #expect(ids("field t\nparam r = \"\"\npattern /a/ if $r = \"a\" if $r = \"b\"\n") == ["duplicate-modifier"])
        // A condition on an integer parameter is refused where the type is resolved.
        let resolved = resolver(["field t\nparam n = 3\npattern /a/ if $n = \"3\"\n"])
        guard case .failure? = resolved.resolve("t") else {
            Issue.record("a condition on an integer parameter resolved")
            return
        }
    }

    // MARK: Masks named in results, and mask-one-of

    @Test func resultsNameTheMaskThatFormattedTheValue() throws {
        let type = try compile(try #require(resolvedField(Self.card)))
        #expect(type.validate("378282246310005").mask == "amex")
        #expect(type.validate("4111").mask == "visa")
        #expect(type.validate("3", stage: .live).mask == "amex")
        #expect(type.validate("5500").mask == nil)         // no mask applies
        #expect(type.validate("  ").mask == nil)           // absent
        // A mask without a name of its own is not reported; nor is a secure type's.
        let plain = try compile(try #require(resolvedField("field d\nmask \"00-00\"\n")))
        #expect(plain.validate("1234").mask == nil)
        let secret = try compile(try #require(resolvedField("field s\nsecure\nmask \"00\" as two\n")))
        #expect(secret.validate("12").mask == nil)
    }

    @Test func maskOneOfTakesTheNamedMasksOnly() throws {
        let d = try #require(resolvedField(Self.card))
        #expect(d.canonicalSource.contains("mask-one-of $brands as brand message \"Not a card we take\"\n"))
        #expect(d.parameterWordChoices == ["brands": ["amex", "visa"]])
        let both = try compile(d)
        #expect(both.failed("378282246310005").isEmpty)
        #expect(both.failed("4111111111111111").isEmpty)
        #expect(both.failed("5500000000000004") == ["brand"])
        let visa = try compile(d, ["brands": .string("visa")])
        #expect(visa.failed("378282246310005") == ["brand"])
        #expect(visa.validate("378282246310005").formatted == "3782 822463 10005")   // still formatted
        #expect(visa.failed("4111") == ["visa"])
        // Live: fails once no named mask can be chosen by any completion.
        #expect(visa.live("") == .valid)
        #expect(visa.live("4") == .incomplete)
        #expect(visa.live("3") == .invalid)
        #expect(visa.live("5") == .invalid)
        #expect(both.live("3") == .incomplete)
        #expect(both.live("37") == .incomplete)
        // Literal names work too, and an unconditional mask can be named.
        let literal = try compile(try #require(resolvedField("""
            field c
            mask "0000 000000 00000" when /3[47].*/ as amex
            mask "0000 0000 0000 0000" as other
            mask-one-of "other"
            """)))
        #expect(literal.failed("4111111111111111").isEmpty)
        #expect(literal.failed("378282246310005") == ["mask-one-of"])
        #expect(literal.live("37") == .incomplete)   // the unconditional mask may still be named
    }

    @Test func maskOneOfNamesOnlyMasksOfTheType() throws {
        let d = try #require(resolvedField(Self.card))
        // The argument is refused (and the check, compiled with it anyway, says why too).
        #expect(diagnosticIDs(d, ["brands": .string("visa jcb")]).first == "argument-kind")
        #expect(diagnosticIDs(d, ["brands": .string("  ")]).first == "argument-kind")
        let catalog = try FieldCatalog.builtin(today: testToday).adding(source: Self.card, file: "card.field")
        let message = try #require(throws: FormularyError.self) { try catalog.fieldType(#"card(brands: "vsa")"#) }
        #expect(message.description.contains(#"found "vsa"; did you mean "visa"?"#))
        #expect(try catalog.fieldType(#"card(brands: "amex")"#).failed("4111111111111111") == ["brand"])
        let literal = try #require(resolvedField("field c\nmask \"00\" when /1.*/ as one\nmask-one-of \"two\"\n"))
        #expect(diagnosticIDs(literal) == ["unknown-rule"])
        #expect(ids("field c\nmask-one-of\n") == ["missing-argument"])
    }
}
