import Testing
@testable import FormularyRules

@Suite struct EngineCompilerTests {
    @Test func emptyRangesAreContradictions() {
        #expect(diagnosticIDs(definition(checks: [check(.length(closed(5, 2), .graphemes))])) == ["empty-range"])
        #expect(diagnosticIDs(definition(checks: [check(.range(decimalRange("10", "1")))])) == ["empty-range"])
        #expect(diagnosticIDs(definition(checks: [check(.range(decimalRange("1", "1", upperInclusive: false)))])) == ["empty-range"])
        #expect(diagnosticIDs(definition(checks: [check(.range(decimalRange("1.0", "1")))])).isEmpty)
        #expect(diagnosticIDs(definition(checks: [check(.length(RangeSpec(lower: nil, upper: .value(0), upperInclusive: false), .graphemes))]))
            == ["empty-range"])
        #expect(diagnosticIDs(definition(checks: [check(.decimal(places: .value(-1)))])) == ["negative-places"])
        #expect(diagnosticIDs(definition(checks: [check(.oneOf([], ignoreCase: false))])) == ["empty-one-of"])
        #expect(diagnosticIDs(definition(checks: [check(.range(decimalRange("1e3", nil)))])) == ["invalid-number"])
    }

    @Test func diagnosticsPointAtTheRule() throws {
        let d = definition(checks: [check(.integer, line: 3), check(.length(closed(5, 2), .graphemes), line: 4)])
        let (compiled, diagnostics) = FieldCompiler.compile(d, arguments: [:], today: testToday)
        #expect(compiled == nil)
        let diagnostic = try #require(diagnostics.first)
        #expect(diagnostic.location.line == 4)
        #expect(diagnostic.severity == .error)
    }

    @Test func maskAndLengthMustAgree() {
        #expect(diagnosticIDs(definition(mask: "000", checks: [check(.length(closed(4, 10), .graphemes))]))
            == ["mask-length-conflict"])
        #expect(diagnosticIDs(definition(mask: "(000)", checks: [check(.length(closed(4, 10), .graphemes))])).isEmpty)
        #expect(diagnosticIDs(definition(mask: "AA", checks: [check(.length(closed(3, 8), .bytes))])).isEmpty)
        #expect(diagnosticIDs(definition(mask: "AA", checks: [check(.length(closed(9, 9), .bytes))]))
            == ["mask-length-conflict"])
        #expect(diagnosticIDs(definition(mask: "00-00", checks: [check(.length(closed(1, 4), .scalars))]))
            == ["mask-length-conflict"])
        #expect(diagnosticIDs(definition(mask: "00\\", checks: [])) == ["invalid-mask"])
    }

    @Test func acceptExamplesMustFillTheMask() throws {
        let examples = [Example(value: "4111 1111", live: false, expectation: .accept(formats: nil), location: at(8)),
                        Example(value: "4111 1", live: true, expectation: .accept(formats: nil), location: at(9)),
                        Example(value: "4111 1", live: false, expectation: .reject(rules: ["mask"]), location: at(10)),
                        Example(value: "4111 11", live: false, expectation: .accept(formats: nil), location: at(11))]
        let d = definition(normalize: [.strip(" ")], mask: "0000 0000", examples: examples)
        let diagnostics = FieldCompiler.compile(d, arguments: [:], today: testToday).diagnostics
        #expect(diagnostics.map(\.id.rawValue) == ["accept-unformattable"])
        #expect(diagnostics.first?.location.line == 11)
    }

    @Test func argumentsAndParameters() throws {
        let parameters = [Parameter(name: "min", defaultValue: .integer("18"), location: at(1)),
                          Parameter(name: "max", defaultValue: .decimal("120.5"), location: at(2))]
        let spec = RangeSpec<DecimalLiteral>(lower: .parameter("min", at(3)), upper: .parameter("max", at(3)), upperInclusive: true)
        let d = definition(checks: [check(.range(spec), message: "between {min} and {max}")], parameters: parameters)
        let defaults = try compile(d)
        #expect(defaults.arguments == ["min": ParameterValue.integer("18"), "max": .decimal("120.5")])
        #expect(defaults.isValid("120.5"))
        #expect(!defaults.isValid("17"))
        let chosen = try compile(d, ["min": .integer("21"), "max": .integer("99")])
        #expect(chosen.arguments["max"] == .decimal("99"))
        #expect(!chosen.isValid("20"))
        #expect(chosen.validate("100").violations.first?.message == "between 21 and 99")
        #expect(diagnosticIDs(d, ["age": .integer("3")]) == ["unknown-parameter"])
        #expect(diagnosticIDs(d, ["min": .string("x")]) == ["argument-kind"])
        #expect(diagnosticIDs(d, ["min": .decimal("1.5")]) == ["argument-kind"])
    }

    @Test func unboundAndWrongKindReferences() {
        let unbound = definition(checks: [check(.length(RangeSpec(lower: .parameter("nope", at(5)), upper: nil, upperInclusive: false), .graphemes))])
        let diagnostics = FieldCompiler.compile(unbound, arguments: [:], today: testToday).diagnostics
        #expect(diagnostics.map(\.id.rawValue) == ["unknown-parameter"])
        #expect(diagnostics.first?.location.line == 5)
        let wrongKind = definition(checks: [check(.length(RangeSpec(lower: .parameter("p", at(5)), upper: nil, upperInclusive: false), .graphemes))],
                                   parameters: [Parameter(name: "p", defaultValue: .decimal("1.5"), location: at(1))])
        #expect(diagnosticIDs(wrongKind) == ["parameter-kind"])
        let stringRange = definition(checks: [check(.range(RangeSpec(lower: .parameter("p", at(5)), upper: nil, upperInclusive: false)))],
                                     parameters: [Parameter(name: "p", defaultValue: .string("x"), location: at(1))])
        #expect(diagnosticIDs(stringRange) == ["parameter-kind"])
        let places = definition(checks: [check(.decimal(places: .parameter("n", at(5))))],
                                parameters: [Parameter(name: "n", defaultValue: .integer("2"), location: at(1))])
        #expect(diagnosticIDs(places).isEmpty)
        #expect(diagnosticIDs(places, ["n": .integer("-2")]) == ["negative-places"])
    }
}
