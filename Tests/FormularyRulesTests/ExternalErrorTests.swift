import Testing
@testable import FormularyRules

/// `FieldEditor.externalError`: a message from the app's server stands in place of the
/// type's, and makes the value invalid, until an edit changes the text.
@Suite struct ExternalErrorTests {
    static let catalog = try! FieldCatalog.builtin(today: CivilDate(year: 2026, month: 1, day: 1))

    func filledEmail() throws -> FieldEditor {
        var field = FieldEditor(type: try Self.catalog.fieldType("email"))
        field.setText("ada@example.com")
        #expect(field.result.verdict == .valid && field.result.message == nil)
        field.externalError = "Email already in use"
        return field
    }

    @Test func itStandsInPlaceOfTheMessageAndMakesTheValueInvalid() throws {
        let field = try filledEmail()
        #expect(field.result.message == "Email already in use")
        #expect(field.result.verdict == .invalid)
        #expect(field.result.violations.first == Violation(rule: "external", severity: .error,
                                                           message: "Email already in use"))
        #expect(field.result.formatted == "ada@example.com")
        // Every moment shows it, whatever the timing: the app asked for it to be seen.
        for moment in MessageMoment.allCases {
            #expect(field.visibleMessage(after: moment) == "Email already in use", "\(moment)")
        }
        var submitOnly = field
        submitOnly.timing = .submit
        #expect(submitOnly.visibleMessage(after: .typing) == "Email already in use")
    }

    @Test func itComesBeforeTheTypesOwnMessage() throws {
        var field = FieldEditor(type: try Self.catalog.fieldType("email"))
        field.setText("ada@")
        field.externalError = "Server says no"
        #expect(field.result.message == "Server says no")
        #expect(field.visibleMessage(after: .leaving) == "Server says no")
        field.externalError = nil
        #expect(field.visibleMessage(after: .leaving) == "Enter an email address like name@example.com")
    }

    @Test func anEditThatChangesTheTextClearsIt() throws {
        var typed = try filledEmail()
        let outcome = typed.insert("x")
        #expect(outcome.accepted && typed.externalError == nil)
        #expect(outcome.result.message == nil && typed.result.verdict == .valid)

        var deleted = try filledEmail()
        deleted.deleteBackward()
        #expect(deleted.externalError == nil && deleted.text == "ada@example.co")

        var replaced = try filledEmail()
        replaced.setText("grace@example.com")
        #expect(replaced.externalError == nil && replaced.result.verdict == .valid)

        var pasted = try filledEmail()
        pasted.select(0..<3)
        pasted.insert("grace")
        #expect(pasted.externalError == nil && pasted.text == "grace@example.com")
    }

    @Test func whatLeavesTheTextAsItWasKeepsIt() throws {
        var field = try filledEmail()
        let refused = field.insert("!")   // no address has a "!" after its "@": refused
        #expect(!refused.accepted)
        #expect(refused.result.message == "Email already in use")
        field.moveCaret(to: 3)
        field.select(0..<3)
        field.setText("ada@example.com")
        field.commit()
        field.moveCaret(to: 0)
        field.deleteBackward()   // at the start: nothing to delete
        #expect(field.externalError == "Email already in use")
        #expect(field.result.message == "Email already in use")
        #expect(field.text == "ada@example.com")
    }

    @Test func withoutOneTheEditorIsUnchanged() throws {
        var field = FieldEditor(type: try Self.catalog.fieldType("email"))
        #expect(field.externalError == nil)
        field.setText("ada@example.com")
        field.externalError = "x"
        field.externalError = nil
        #expect(field.result.violations.isEmpty && field.result.verdict == .valid)
    }
}
