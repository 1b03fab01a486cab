import Testing
@testable import FormularyRules

@Suite struct MaskTests {
    @Test func insertsLiteralsWhileValueCharactersRemain() throws {
        let phone = try compileType(mask: "(000) 000-0000")
        #expect(phone.format("5") == "(5")
        #expect(phone.format("555") == "(555")
        #expect(phone.format("5551") == "(555) 1")
        #expect(phone.format("5551234567") == "(555) 123-4567")
    }

    @Test func keepsLiteralsAlreadyInPlace() throws {
        let phone = try compileType(mask: "(000) 000-0000")
        #expect(phone.format("(555) 123-4567") == "(555) 123-4567")
        #expect(phone.format("(555)1234567") == "(555) 123-4567")
        #expect(phone.format("555) 123-4567") == "(555) 123-4567")
    }

    @Test func formattingIsIdempotent() throws {
        let phone = try compileType(mask: "(000) 000-0000")
        for value in ["5", "555123", "5551234567", "55512345678", "55a"] {
            let once = phone.format(value)
            #expect(phone.format(once) == once)
        }
    }

    @Test func neverDropsCharacters() throws {
        let card = try compileType(mask: "0000 0000")
        #expect(card.format("123456789") == "1234 56789")
        #expect(card.failed("123456789") == ["mask"])
        #expect(card.format("12a45678") == "12a45678")
        #expect(card.failed("12a45678") == ["mask"])
    }

    @Test func aNumberGroupIsDigitSlotsThatTypingPads() throws {
        let mask = try #require(CompiledMask("{01-12}/00"))
        #expect(mask.items == [.digit, .digit, .literal("/"), .digit, .digit] && mask.display == "00/00")
        #expect(mask.numbers == [NumberGroup(start: 0, width: 2, low: 1, high: 12)])
        #expect(mask.padded(["2"], typed: 0)?.value == ["0", "2", "/"])
        #expect(mask.padded(["1", "/"], typed: 1)?.value == ["0", "1", "/"])
        #expect(mask.padded(["1"], typed: 0) == nil && mask.padded(["0", "/"], typed: 1) == nil)
        // Not a group: different widths, LOW above HIGH, escaped; the `{` stays a literal.
        for pattern in ["{1-12}", "{12-01}", "\\{01-12}"] {
            let literal = try #require(CompiledMask(pattern))
            #expect(literal.numbers.isEmpty && literal.items.first != .digit, "\(pattern)")
        }
        let type = try compileType(mask: "{01-12}/00")
        #expect(type.format("0130") == "01/30" && type.format("1/30") == "1/30")
        #expect(MaskRule(pattern: "0000-{01-12}-{01-31} \\{01-12}", options: RuleOptions(name: "mask", location: noLocation))
            .slotPattern == "0000-00-00 \\{01-12}")
    }

    @Test func slotKinds() throws {
        let plate = try compileType(mask: "AA-00-**")
        #expect(plate.isValid("AB12X9"))
        #expect(plate.validate("ab12x9").formatted == "ab-12-x9")
        #expect(plate.isValid("ÉÑ-12-ßz"))       // letters are Unicode letters
        #expect(!plate.isValid("A1-12-X9"))
        #expect(!plate.isValid("AB-1٢-X9"))      // digit slots take ASCII digits only
        #expect(!plate.isValid("AB-12-X_"))
    }

    @Test func escapedSlotCharactersAreLiterals() throws {
        let type = try compileType(mask: "\\A\\0-000")
        #expect(type.format("123") == "A0-123")
        #expect(type.isValid("A0-123"))
        #expect(!type.isValid("B0-123"))
    }

    @Test func trailingLiteralsCompleteOnceEverySlotIsFilled() throws {
        let type = try compileType(mask: "(000)")
        #expect(type.format("12") == "(12")
        #expect(type.format("123") == "(123)")
        #expect(type.isValid("123"))
    }

    @Test func finalNeedsAFilledMaskLiveAFittingPrefix() throws {
        let type = try compileType(mask: "00/00")
        #expect(type.failed("12/3") == ["mask"])
        #expect(type.live("12/3") == .incomplete)
        #expect(type.failed("1", .live).isEmpty)
        #expect(type.failed("12/3x", .live) == ["mask"])
        #expect(type.failed("12/345", .live) == ["mask"])
        #expect(type.live("12/34") == .valid)
    }

    @Test func maskRuleOptions() throws {
        let d = definition(mask: "000", maskOptions: RuleOptions(name: "shape", severity: .warning,
                                                                message: "{value} is not 3 digits",
                                                                location: at(1)))
        let type = try compile(d)
        let result = type.validate("12")
        #expect(result.verdict == .valid)
        #expect(result.violations == [Violation(rule: "shape", severity: .warning, message: "12 is not 3 digits")])
    }

    @Test func defaultMessageShowsTheMask() throws {
        let type = try compileType(mask: "\\A00")
        #expect(type.validate("A1").violations.first?.message == "Expected the format A00")
    }
}
