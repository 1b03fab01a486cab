import Testing
@testable import FormularyRules

@Suite struct TimingTests {
    @Test func eachTimingParsesAndTheDefaultIsLeaving() throws {
        for timing in MessageTiming.allCases {
            #expect(resolvedField("field x\ntiming \(timing.rawValue)")?.timing == timing)
        }
        let plain = try #require(resolvedField("field x\nlength 1...3"))
        #expect(plain.timing == nil)
        let (compiled, _) = FieldCompiler.compile(plain, arguments: [:], today: testToday)
        #expect(compiled?.timing == .leaving)
    }

    @Test func unknownMissingAndRepeatedTimingsAreErrors() {
        #expect(ids("field x\ntiming never") == ["unknown-timing"])
        #expect(ids("field x\ntiming") == ["missing-argument"])
        #expect(ids("field x\ntiming typing submit") == ["unexpected-token"])
        #expect(ids("field x\ntiming typing\ntiming submit") == ["duplicate-directive"])
        let outcome = parseText("field x\ntiming typng")
        #expect(outcome.diagnostics.first?.fixIts.map(\.replacement) == ["typing"],
                "\(outcome.diagnostics)")
    }

    @Test func canonicalSourceCarriesTimingOnlyWhenGiven() throws {
        let typed = try #require(resolvedField("field x\ntiming typing\nlength 1...3"))
        #expect(typed.canonicalSource == "field x\ntiming typing\nlength 1...3\n")
        let plain = try #require(resolvedField("field x\nlength 1...3"))
        #expect(!plain.canonicalSource.contains("timing"))
    }

    @Test func aDerivedTypeInheritsOrReplacesTiming() throws {
        let base = "field card\ntiming submit\nlength 1...3"
        let declarations = [base, "field visa extends card", "field amex extends card\ntiming typing"]
            .compactMap { declaration($0) }
        let resolver = TypeResolver(declarations: Dictionary(uniqueKeysWithValues: declarations.map { ($0.name, $0) }))
        #expect(try resolver.resolve("visa")?.get().timing == .submit)
        #expect(try resolver.resolve("amex")?.get().timing == .typing)
    }

    @Test func aFormFieldOverridesTimingAndPrintsIt() throws {
        let text = """
            form pay
            field card credit-card required timing submit
            field cvv cvv timing typing label "CVV"
            field expires exp-date
            """
        let outcome = parseText(text, file: "pay.form")
        #expect(outcome.diagnostics == [])
        guard case .form(let form) = outcome.content else { Issue.record("not a form"); return }
        #expect(form.fields.map(\.timing) == [.submit, .typing, nil])
        #expect(form.canonicalSource.contains("field card credit-card required timing submit\n"))
        #expect(form.canonicalSource.contains("field cvv cvv label \"CVV\" timing typing\n"))
        guard case .form(let again) = parseText(form.canonicalSource, file: "pay.form").content else {
            Issue.record("the canonical form does not parse"); return
        }
        #expect(again.strippingLocations() == form.strippingLocations())
    }

    @Test func aFormFieldRejectsBadTimings() {
        #expect(ids("form f\nfield a age timing soon", file: "f.form") == ["unknown-timing"])
        #expect(ids("form f\nfield a age timing typing timing submit", file: "f.form") == ["duplicate-modifier"])
        let misspelt = parseText("form f\nfield a age timming typing", file: "f.form").diagnostics
        #expect(misspelt.map(\.id.rawValue) == ["unexpected-token"])
        #expect(misspelt.first?.fixIts.map(\.replacement) == ["timing"], "\(misspelt)")
    }
}

@Suite struct VisibleMessageTests {
    func editor(_ timing: MessageTiming, typing text: String) throws -> FieldEditor {
        var field = FieldEditor(type: try builtin("credit-card"), policy: .acceptAll)
        field.timing = timing
        field.type(text)
        return field
    }

    @Test func typingShowsTheLiveMessageAtOnce() throws {
        let bad = try editor(.typing, typing: "41a")
        #expect(bad.visibleMessage(after: .typing) == "A Visa card number has 13, 16 or 19 digits")
        let short = try editor(.typing, typing: "4111")
        #expect(short.visibleMessage(after: .typing) == nil)
        #expect(short.visibleMessage(after: .leaving) == "A Visa card number has 13, 16 or 19 digits")
        #expect(short.visibleMessage(after: .submitting) == "A Visa card number has 13, 16 or 19 digits")
    }

    @Test func leavingWaitsForTheFieldToLoseFocus() throws {
        let bad = try editor(.leaving, typing: "41a")
        #expect(bad.visibleMessage(after: .typing) == nil)
        #expect(bad.visibleMessage(after: .leaving) == "A Visa card number has 13, 16 or 19 digits")
        #expect(bad.visibleMessage(after: .submitting) == "A Visa card number has 13, 16 or 19 digits")
        let luhn = try editor(.leaving, typing: "4111111111111112")
        #expect(luhn.visibleMessage(after: .leaving) == "Card number is not valid")
    }

    @Test func submitWaitsForTheForm() throws {
        let bad = try editor(.submit, typing: "41a")
        #expect(bad.visibleMessage(after: .typing) == nil)
        #expect(bad.visibleMessage(after: .leaving) == nil)
        #expect(bad.visibleMessage(after: .submitting) == "A Visa card number has 13, 16 or 19 digits")
    }

    @Test func validAndEmptyFieldsShowNothing() throws {
        for timing in MessageTiming.allCases {
            let valid = try editor(timing, typing: "4111111111111111")
            let empty = try editor(timing, typing: "")
            for moment in MessageMoment.allCases {
                #expect(valid.visibleMessage(after: moment) == nil)
                #expect(empty.visibleMessage(after: moment) == nil)
            }
        }
    }

    @Test func theEditorTakesItsTypesTiming() throws {
        let d = definition(mask: "000")
        var typed = d
        typed.timing = .typing
        #expect(FieldEditor(type: try compile(d)).timing == .leaving)
        #expect(FieldEditor(type: try compile(typed)).timing == .typing)
    }
}
