import Testing
@testable import FormularyRules

/// A form's `required`: its own `message`, the default naming the field's label, their
/// translations; and labels that name parameters.
struct FormRequiredMessageTests {
    static let form = """
        form signup
        field full-name  name            required   label "Full name"
        field age        age(min: 18)    required
        field email      email           required message "We need {label} to write to you"   label "your email"
        field nick       username        required message "Pick a nickname"
        """

    func messages(_ catalog: FieldCatalog, _ values: [String: String] = [:]) throws -> [String] {
        try catalog.form(source: Self.form, file: "signup.form").judge(values).violations
            .filter { $0.rule == "required" }.map(\.message)
    }

    @Test func theDefaultNamesTheLabelAndAMessageReplacesIt() throws {
        let catalog = try FieldCatalog.builtin(today: FieldCatalogTests.today)
        #expect(try messages(catalog) == [
            "Full name is required", "'age' is required", "We need your email to write to you", "Pick a nickname",
        ])
        let parsed = try catalog.form(source: Self.form, file: "signup.form").form
        #expect(parsed.fields[3].requiredMessage == "Pick a nickname" && parsed.fields[0].requiredMessage == nil)
        #expect(parsed.fields[2].requiredText == "We need your email to write to you")
        // The canonical source keeps the message, and reads back to the same form.
        #expect(parsed.canonicalSource.contains(#"field email email required message "We need {label} to write to you" label "your email""#))
        let again = try catalog.form(source: parsed.canonicalSource, file: "again.form").form
        #expect(again.canonicalSource == parsed.canonicalSource)
        // `message` belongs to `required`: elsewhere it is no modifier of a field.
        #expect(throws: FormularyError.self) {
            try catalog.form(source: "form f\nfield a age message \"x\"\n", file: "f.form")
        }
    }

    @Test func catalogsTranslateLabelsAndRequiredMessages() throws {
        let german = try FieldCatalog.builtin(today: FieldCatalogTests.today)
            .adding(messages: """
                form signup.full-name.label = "Vollständiger Name"
                form signup.nick.required = "Bitte einen Spitznamen"
                """, file: "de.messages")
            .localized("de")
        // The built-in `form *.*.required` for fields without a message of their own; a
        // field's own English message stays unless its key translates it.
        #expect(try messages(german) == [
            "Vollständiger Name ist ein Pflichtfeld", "'age' ist ein Pflichtfeld",
            "We need your email to write to you", "Bitte einen Spitznamen",
        ])
        let validator = try german.form(source: Self.form, file: "signup.form")
        #expect(validator.form.fields[0].label == "Vollständiger Name")
        #expect(try messages(FieldCatalog.builtin(today: FieldCatalogTests.today).localized("pt-BR"))[1]
                == "'age' é obrigatório")
    }

    @Test func labelsHelpAndPlaceholdersNameParameters() throws {
        let catalog = try FieldCatalog.builtin(today: FieldCatalogTests.today).adding(source: """
            field span
            label "Age ({min}-{max})"
            help "Between {min} and {max} {unit}"
            placeholder "{min}"
            param min = 0
            param max = 150
            param unit = "years"
            integer
            """, file: "span.field")
        let type = try catalog.fieldType("span(min: 18, unit: \"Jahre\")")
        #expect(type.definition.label == "Age (18-150)")
        #expect(type.definition.help == "Between 18 and 150 Jahre")
        #expect(type.definition.placeholder == "18")
        // The definition as written keeps the placeholders.
        #expect(try catalog.definition(named: "span").label == "Age ({min}-{max})")
    }
}
