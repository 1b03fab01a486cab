import Testing
@testable import FormularyRules

@Suite struct DecimalTests {
    @Test func integerIsASCIIOnly() throws {
        let type = try compileType(check(.integer))
        for valid in ["0", "42", "-7", "007", "123456789012345678901234567890"] { #expect(type.isValid(valid), "\(valid)") }
        for invalid in ["+1", "1.0", "1_000", " 30", "٣٠", "３０", "-", "1e3", "--1", "1-"] {
            #expect(!type.isValid(invalid), "\(invalid)")
        }
    }

    @Test func integerLiveAcceptsPrefixes() throws {
        let type = try compileType(check(.integer))
        #expect(type.live("-") == .incomplete)
        #expect(type.live("-1") == .valid)
        #expect(type.live("1.") == .invalid)
        #expect(type.live("٣") == .invalid)
    }

    @Test func decimalWithPlaces() throws {
        let type = try compileType(check(.decimal(places: .value(2))))
        for valid in ["0", "1.5", "-1.25", "10.00", "007.10"] { #expect(type.isValid(valid), "\(valid)") }
        for invalid in ["1.", ".5", "1.255", "-", "1,5", "1.2.3", "١.٥"] { #expect(!type.isValid(invalid), "\(invalid)") }
        #expect(type.live("12.") == .incomplete)
        #expect(type.live("-") == .incomplete)
        #expect(type.live("1.234") == .invalid)
        #expect(type.live(".") == .invalid)
        let whole = try compileType(check(.decimal(places: .value(0))))
        #expect(whole.isValid("12"))
        #expect(whole.live("12.") == .invalid)
        let any = try compileType(check(.decimal(places: nil)))
        #expect(any.isValid("3.14159265358979323846"))
    }

    @Test func rangeComparesExactly() throws {
        let type = try compileType(check(.range(decimalRange("0.1", "0.3"))))
        #expect(type.isValid("0.3"))
        #expect(type.isValid("0.30000"))
        #expect(!type.isValid("0.30000000000000004"))
        #expect(type.isValid("0.1"))
        #expect(!type.isValid("0.09999999999999999999"))
        #expect(!type.isValid("abc"))
        #expect(!type.isValid("0.2x"))
    }

    @Test func rangeBoundsAndSigns() throws {
        let age = try compileType(check(.range(decimalRange("18", "120"))))
        for valid in ["18", "120", "018", "42", "119.999", "120.0"] { #expect(age.isValid(valid), "\(valid)") }
        for invalid in ["17", "17.9999", "120.0001", "-18", "1200", "0"] { #expect(!age.isValid(invalid), "\(invalid)") }
        let open = try compileType(check(.range(decimalRange("-1.5", "0", lowerExclusive: true, upperInclusive: false))))
        #expect(!open.isValid("-1.5"))
        #expect(open.isValid("-1.49"))
        #expect(!open.isValid("0"))
        #expect(!open.isValid("-0"))
        #expect(open.isValid("-0.0001"))
        let above = try compileType(check(.range(decimalRange("1.1", nil, lowerExclusive: true))))
        #expect(above.isValid("1.10000001"))
        #expect(!above.isValid("1.1"))
        #expect(above.isValid(String(repeating: "9", count: 100)))
    }

    @Test func megabyteNumbersAreJudgedWhole() throws {
        let type = try compileType(check(.range(decimalRange("0", "1"))))
        let big = "0." + String(repeating: "9", count: 1_000_000)
        // The time these take is a printed figure of `FormularyBench large`.
        #expect(type.isValid(big))
        #expect(!type.isValid("1" + big.dropFirst()))
        #expect(type.live(big) == .valid)
        let huge = String(repeating: "1", count: 1_000_000)
        #expect(!type.isValid(huge))
        #expect(type.live(huge) == .invalid)
    }

    @Test func rangeLiveReasonsAboutCompletions() throws {
        let age = try compileType(check(.range(decimalRange("18", "120"))))
        #expect(age.live("") == .valid)        // absent
        #expect(age.live("1") == .incomplete)  // 18, 19, 100…120
        #expect(age.live("2") == .incomplete)  // 20…99
        #expect(age.live("12") == .incomplete) // 120
        #expect(age.live("13") == .invalid)    // 13, 130…: nothing in 18…120
        #expect(age.live("121") == .invalid)
        #expect(age.live("0") == .incomplete)  // leading zeros: 018
        #expect(age.live("-") == .invalid)
        #expect(age.live("-1") == .invalid)
        #expect(age.live("17.") == .invalid)   // [17, 18) misses 18
        #expect(age.live("119.") == .incomplete)
        #expect(age.live("120.") == .incomplete) // 120.0
        #expect(age.live("120.1") == .invalid)
        #expect(age.live("x") == .invalid)
        #expect(age.live("1.2.") == .invalid)
    }

    @Test func rangeLiveWithExclusiveAndNegativeBounds() throws {
        let below = try compileType(check(.range(decimalRange("-10", "-2", lowerExclusive: true, upperInclusive: false))))
        #expect(below.live("-") == .incomplete)
        #expect(below.live("-9") == .valid)
        #expect(below.live("-2") == .incomplete)   // -2.5
        #expect(below.live("-2.") == .incomplete)
        #expect(below.live("3") == .invalid)
        #expect(below.live("0") == .invalid)
        // "-1" completes to -1.x (above -2), -1x (≤ -10: -10 excluded, -11… below) → none.
        #expect(below.live("-1") == .invalid)
        let upTo = try compileType(check(.range(decimalRange(nil, "0.5", upperInclusive: false))))
        #expect(upTo.live("0.5") == .invalid)
        #expect(upTo.live("0.4") == .valid)
        #expect(upTo.live("0") == .valid)
        #expect(upTo.live("-") == .incomplete)
        #expect(upTo.live("1") == .invalid)
        let exact = try compileType(check(.range(decimalRange("100", "100"))))
        #expect(exact.live("1") == .incomplete)
        #expect(exact.live("10") == .incomplete)
        #expect(exact.live("100.") == .incomplete)
        #expect(exact.live("100.00") == .valid)
        #expect(exact.live("101") == .invalid)
        #expect(exact.live("2") == .invalid)
        let fractional = try compileType(check(.range(decimalRange("0.25", "0.26"))))
        #expect(fractional.live("0.2") == .incomplete)
        #expect(fractional.live("0.27") == .invalid)
        #expect(fractional.live("0.3") == .invalid)
        #expect(fractional.live("0.260") == .valid)
        #expect(fractional.live("0.2600001") == .invalid)
    }
}
