import Testing
@testable import FormularyRules

/// `decimal-separator ","`: a type whose numbers are written with a decimal comma.
@Suite struct DecimalSeparatorTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    /// A German measurement: a comma between the whole and the fractional digits.
    static let messwert = """
        field messwert
        decimal-separator ","
        param limit = 10.5
        normalize trim
        decimal places 2
        range 0...$limit   message "Von {min} bis {max} (höchstens {limit})"
        accept "3,14"
        accept " 10,50 " formats "10,50"
        reject "3.14" decimal range
        reject "10,51" range
        reject "1.000" decimal range
        """

    static let catalog: FieldCatalog = {
        try! FieldCatalog.builtin(today: today).adding(source: messwert, file: "messwert.field")
    }()

    @Test func theDirectiveParsesPrintsAndIsInherited() throws {
        let comma = try #require(resolvedField("field x\ndecimal-separator \",\"\ndecimal"))
        #expect(comma.decimalSeparator == .comma)
        #expect(comma.canonicalSource == "field x\ndecimal-separator \",\"\ndecimal\n")
        let point = try #require(resolvedField("field x\ndecimal-separator \".\"\ndecimal"))
        #expect(point.decimalSeparator == .point)
        // A type that says nothing prints nothing, so its version hash is unchanged.
        let plain = try #require(resolvedField("field x\ndecimal"))
        #expect(plain.decimalSeparator == nil && !plain.canonicalSource.contains("separator"))
        let declarations = ["field de\ndecimal-separator \",\"\ndecimal", "field de-price extends de",
                            "field back extends de\ndecimal-separator \".\""].compactMap { declaration($0) }
        let resolver = TypeResolver(declarations: Dictionary(uniqueKeysWithValues: declarations.map { ($0.name, $0) }))
        #expect(try resolver.resolve("de-price")?.get().decimalSeparator == .comma)
        #expect(try resolver.resolve("back")?.get().decimalSeparator == .point)
    }

    @Test func otherSeparatorsAndRepeatsAreErrorsAtTheirPlace() throws {
        #expect(ids("field x\ndecimal-separator \";\"") == ["invalid-decimal-separator"])
        #expect(ids("field x\ndecimal-separator \",,\"") == ["invalid-decimal-separator"])
        #expect(ids("field x\ndecimal-separator ,") == ["unexpected-token"])
        #expect(ids("field x\ndecimal-separator") == ["missing-argument"])
        #expect(ids("field x\ndecimal-separator \",\" \".\"") == ["unexpected-token"])
        #expect(ids("field x\ndecimal-separator \",\"\ndecimal-separator \",\"") == ["duplicate-directive"])
        let outcome = parseText("field x\ndecimal-separator \"'\"", file: "x.field")
        let formatted = DiagnosticFormatter().format(outcome.diagnostics)
        #expect(formatted.hasPrefix("x.field:2:19: error: decimal-separator \"'\" is not a decimal separator; "
                                    + "write \",\" (3,14) or \".\" (3.14)"), "\(formatted)")
        let repeated = DiagnosticFormatter().format(
            parseText("field x\ndecimal-separator \",\"\ndecimal-separator \".\"", file: "x.field").diagnostics)
        #expect(repeated.hasPrefix("x.field:3:1: error: "), "\(repeated)")
    }

    @Test func decimalAndRangeReadTheCommaAndRefuseThePoint() throws {
        let type = try Self.catalog.fieldType("messwert")
        #expect(type.decimalSeparator == .comma)
        #expect(type.validate("3,14").verdict == .valid)
        #expect(type.validate(" 10,50 ").formatted == "10,50")
        #expect(type.failed("3.14") == ["decimal", "range"])
        #expect(type.failed("10,51") == ["range"])
        #expect(type.failed("3,141") == ["decimal"])
        // No thousands separators, of either kind: `1.000` is not a thousand, nor one.
        #expect(type.failed("1.000") == ["decimal", "range"])
        #expect(type.failed("1,000") == ["decimal"])
        #expect(type.failed(",5") == ["decimal", "range"])
        #expect(type.failed("5,") == ["decimal", "range"])
        // Live: `3,` can still become `3,1`; a point can never become a number here.
        #expect(type.live("3,") == .incomplete)
        #expect(type.live("3.") == .invalid)
        #expect(type.live("-1") == .invalid)   // no number below 0 is in 0...10,5
        #expect(type.live("10,6") == .invalid)
        // Integers have no separator: a comma type reads them as every type does.
        let whole = try FieldCatalog.builtin(today: Self.today)
            .adding(source: "field n\ndecimal-separator \",\"\ninteger\nrange 1...99", file: "n.field").fieldType("n")
        #expect(whole.validate("42").verdict == .valid)
        #expect(whole.failed("4,2") == ["integer"])
        #expect(whole.failed("1.000") == ["integer", "range"])
    }

    @Test func messagesShowNumbersWithTheTypesSeparator() throws {
        let type = try Self.catalog.fieldType("messwert")
        let message = type.validate("11").violations.first?.message
        #expect(message == "Von 0 bis 10,5 (höchstens 10,5)")
        let argued = try Self.catalog.fieldType("messwert(limit: 2.75)")
        #expect(argued.validate("3").violations.first?.message == "Von 0 bis 2,75 (höchstens 2,75)")
        let compiled = try FieldCatalog.builtin(today: Self.today)
            .adding(source: "field d\ndecimal-separator \",\"\nrange 1.5...2.5\nrange 0.25<.. as above", file: "d.field")
            .fieldType("d")
        #expect(compiled.validate("3").violations.first?.message == "Must be a number from 1,5 to 2,5")
        #expect(compiled.validate("0,1").violations.last?.message == "Must be a number above 0,25")
    }

    @Test func theEditorTakesTheCommaAndRefusesThePoint() throws {
        var field = FieldEditor(type: try Self.catalog.fieldType("messwert"))
        #expect(field.type("3,14") == 0)
        #expect(field.text == "3,14" && field.result.verdict == .valid)
        var other = FieldEditor(type: try Self.catalog.fieldType("messwert"))
        #expect(other.type("3.") == 1)
        #expect(other.text == "3")
    }

    @Test func compareReadsEachSideWithItsOwnSeparator() throws {
        let form = try Self.catalog.form(source: """
            form lab
            field measured  messwert
            field allowed   decimal
            compare measured <= allowed
            """, file: "lab.form")
        func failed(_ measured: String, _ allowed: String) -> [String] {
            form.judge(["measured": measured, "allowed": allowed]).formViolations.map(\.rule)
        }
        #expect(failed("3,14", "3.14") == [])
        #expect(failed("3,15", "3.14") == ["compare"])
        #expect(failed("2,5", "10") == [])
        // A value its type refuses is not compared (the field reports it).
        #expect(failed("3.15", "3.14") == [])
    }

    @Test func theTypesOwnExamplesPass() throws {
        let results = SelfTests.run(try Self.catalog.fieldType("messwert"))
        #expect(results.allSatisfy { $0.passed }, "\(results)")
    }
}
