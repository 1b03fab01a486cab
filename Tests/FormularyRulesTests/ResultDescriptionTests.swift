import Testing
@testable import FormularyRules

/// What `print` shows of a result, a form's judgement and an editor: the verdict and the
/// messages a user reads, never a struct dump and never a value a result cannot know to hide.
struct ResultDescriptionTests {
    let catalog = try! FieldCatalog.builtin(today: editorToday)

    @Test func aFieldResultSaysItsVerdictAndMessagesButNotTheValue() throws {
        let age = try catalog.fieldType("age(min: 18, max: 120)")
        #expect("\(age.validate("17"))" == "invalid — range: Age must be between 18 and 120")
        #expect("\(age.validate("36"))" == "valid")
        #expect("\(age.validate(""))" == "valid (absent)")
        let card = try catalog.fieldType("credit-card")
        let judged = card.validate("4111 1111 1111 1112")
        #expect(!"\(judged)".contains("4111") && "\(judged)".hasPrefix("invalid — "), "\(judged)")
    }

    @Test func aFormResultHasALinePerFieldAndPerCrossFieldRule() throws {
        let signup = try catalog.form(source: """
            form signup
            field email         email           required
            field email-again   email           required
            field age           age(min: 18, max: 120)    required
            same email email-again   message "The two email addresses differ"
            """, file: "signup.form")
        let result = signup.judge(["email": "ada@example.com", "email-again": "ada@example.org"])
        let lines = "\(result)".split(separator: "\n").map(String.init)
        #expect(lines.first == "invalid")
        #expect(lines.contains { $0.hasPrefix("  age: invalid (absent) — required: ") }, "\(lines)")
        #expect(lines.contains("  email: valid") && lines.contains("  email-again: valid"), "\(lines)")
        #expect(lines.contains { $0.hasSuffix("same: The two email addresses differ") }, "\(lines)")
        #expect(!"\(result)".contains("ada@"))
    }

    @Test func anEditorShowsItsTextCaretAndVerdictAndHidesASecureTypesText() throws {
        var field = FieldEditor(type: try catalog.fieldType("credit-card"))
        field.insert("41111")
        #expect("\(field)" == "credit-card \"4111 1|\" incomplete")
        let outcome = field.insert("x")
        #expect("\(outcome)".hasPrefix("refused (") && "\(outcome)".hasSuffix("): incomplete"), "\(outcome)")
        var cvv = FieldEditor(type: try catalog.fieldType("cvv"))
        cvv.insert("98")
        #expect("\(cvv)".hasPrefix("cvv \"••|\" "), "\(cvv)")
        #expect(!"\(cvv)".contains("98"))
    }
}
