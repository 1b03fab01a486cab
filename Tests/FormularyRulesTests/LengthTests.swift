import Testing
@testable import FormularyRules

@Suite struct LengthTests {
    private func length(_ unit: LengthUnit, _ lower: Int, _ upper: Int) throws -> CompiledFieldType {
        try compileType(check(.length(closed(lower, upper), unit)))
    }

    @Test func unitsCountDifferently() throws {
        let family = "👨‍👩‍👧"       // 1 grapheme, 5 scalars, 8 UTF-16 units, 18 bytes
        #expect(try length(.graphemes, 1, 1).isValid(family))
        #expect(try length(.scalars, 5, 5).isValid(family))
        #expect(try length(.utf16, 8, 8).isValid(family))
        #expect(try length(.bytes, 18, 18).isValid(family))
        #expect(!(try length(.graphemes, 2, 9).isValid(family)))
        let accent = "e\u{301}"        // 1 grapheme, 2 scalars
        #expect(try length(.graphemes, 1, 1).isValid(accent))
        #expect(try length(.scalars, 2, 2).isValid(accent))
    }

    @Test func asciiCountsBytesExceptCRLF() throws {
        #expect(try length(.graphemes, 3, 3).isValid("a\r\nb"))
        #expect(try length(.scalars, 4, 4).isValid("a\r\nb"))
        #expect(try length(.bytes, 4, 4).isValid("a\r\nb"))
        #expect(try length(.graphemes, 4, 4).isValid("a\n\rb"))
        #expect(try length(.graphemes, 5, 5).isValid("abcde"))
    }

    @Test func boundsAndExclusiveRanges() throws {
        let type = try compileType(check(.length(RangeSpec(lower: .value(2), lowerExclusive: true,
                                                           upper: .value(5), upperInclusive: false), .graphemes)))
        #expect(!type.isValid("ab"))
        #expect(type.isValid("abc"))
        #expect(type.isValid("abcd"))
        #expect(!type.isValid("abcde"))
        let atLeast = try compileType(check(.length(RangeSpec(lower: .value(3), upper: nil, upperInclusive: false), .graphemes)))
        #expect(atLeast.isValid(String(repeating: "x", count: 10_000)))
        #expect(atLeast.validate("ab").violations.first?.message == "Must be at least 3 characters long")
    }

    @Test func liveFailsOnlyAboveTheMaximum() throws {
        let type = try length(.graphemes, 3, 4)
        #expect(type.live("a") == .incomplete)
        #expect(type.live("abc") == .valid)
        #expect(type.live("abcde") == .invalid)
        #expect(type.failed("abcde", .live) == ["length"])
    }
}
