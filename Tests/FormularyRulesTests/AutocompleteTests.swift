import Testing
@testable import FormularyRules

/// `autocomplete NAME`: parsed for every HTML autofill field name, inherited and replaced
/// through `extends`, printed in the canonical form only when given, refused with a
/// did-you-mean for anything else, and declared by the built-in types that hold such values.
@Suite struct AutocompleteTests {
    @Test func everyAutofillFieldNameParses() {
        #expect(Autocomplete.allCases.count == 54)
        for name in Autocomplete.allCases {
            #expect(resolvedField("field x\nautocomplete \(name.rawValue)")?.autocomplete == name)
        }
        #expect(resolvedField("field x\nlabel \"X\"")?.autocomplete == nil)
    }

    @Test func derivedTypesInheritOrReplaceIt() throws {
        let base = "field contact\nautocomplete email\nnormalize trim"
        let same = try #require(resolver([base, "field work-contact extends contact"]).resolve("work-contact")).get()
        #expect(same.autocomplete == .email)
        let other = try #require(resolver([base, "field mobile extends contact\nautocomplete tel"])
            .resolve("mobile")).get()
        #expect(other.autocomplete == .tel)
    }

    @Test func canonicalSourcePrintsItOnlyWhenGiven() throws {
        let with = try #require(resolvedField("field x\nkeyboard email\nautocomplete email\nnormalize trim"))
        #expect(with.canonicalSource == "field x\nkeyboard email\nautocomplete email\nnormalize trim\n")
        #expect(resolvedField(with.canonicalSource)?.autocomplete == .email)
        // Without the directive the text, and so the version hash, is what it was before.
        let without = try #require(resolvedField("field x\nkeyboard email\nnormalize trim"))
        #expect(without.canonicalSource == "field x\nkeyboard email\nnormalize trim\n")
    }

    @Test func aMisspelledNameGetsAFixItAtItsColumn() throws {
        let diagnostic = try #require(parseText("field x\nautocomplete emial\n", file: "t.field").diagnostics.first)
        #expect(diagnostic.id.rawValue == "unknown-autocomplete")
        #expect((diagnostic.location.line, diagnostic.location.column, diagnostic.location.length) == (2, 14, 5))
        #expect(diagnostic.fixIts.map(\.replacement) == ["email"])
        #expect(DiagnosticFormatter().format(diagnostic) == """
            t.field:2:14: error: unknown autocomplete name 'emial'; did you mean 'email'?
            autocomplete emial
                         ^~~~~
            """)
    }

    @Test func commonWordsThatAreNoNameGetTheNameMeant() throws {
        for (word, meant) in [("phone", "tel"), ("Phone", "tel"), ("zip", "postal-code"), ("cvv", "cc-csc"), ("password", "current-password")] {
            let diagnostic = try #require(parseText("field x\nautocomplete \(word)").diagnostics.first)
            #expect(diagnostic.id.rawValue == "unknown-autocomplete")
            #expect(diagnostic.fixIts.map(\.replacement) == [meant], "\(word)")
        }
        let off = try #require(parseText("field x\nautocomplete off").diagnostics.first)
        #expect(off.fixIts.isEmpty && off.notes.map(\.message).joined().contains("leave the directive out"))
        let far = try #require(parseText("field x\nautocomplete spaceship").diagnostics.first)
        #expect(far.notes.map(\.message).joined().contains("HTML autofill field name"))
    }

    @Test func itIsGivenOnceAndTakesOneName() {
        #expect(ids("field x\nautocomplete email\nautocomplete tel") == ["duplicate-directive"])
        #expect(ids("field x\nautocomplete home tel") == ["unknown-autocomplete"])
        #expect(ids("field x\nautocomplete email tel") == ["unexpected-token"])
        #expect(ids("field x\nautocomplete") == ["missing-argument"])
    }

    @Test func uiKitContentTypeNames() {
        #expect(Autocomplete.email.uiTextContentTypeName == "emailAddress")
        #expect(Autocomplete.tel.uiTextContentTypeName == "telephoneNumber")
        #expect(Autocomplete.ccNumber.uiTextContentTypeName == "creditCardNumber")
        #expect(Autocomplete.currentPassword.uiTextContentTypeName == "password")
        #expect(Autocomplete.oneTimeCode.uiTextContentTypeName == "oneTimeCode")
        #expect(Autocomplete.sex.uiTextContentTypeName == nil)
    }

    @Test func builtinTypesDeclareWhatTheyHold() throws {
        let catalog = try FieldCatalog.builtin(today: CivilDate(year: 2026, month: 1, day: 1))
        let expected: [String: Autocomplete] = [
            "email": .email, "phone": .tel, "phone-intl": .tel, "credit-card": .ccNumber, "exp-date": .ccExp,
            "cvv": .ccCSC, "us-zip": .postalCode, "name": .name, "username": .username, "url": .url,
        ]
        for name in catalog.typeNames {
            #expect(try catalog.definition(named: name).autocomplete == expected[name], "\(name)")
        }
    }
}
