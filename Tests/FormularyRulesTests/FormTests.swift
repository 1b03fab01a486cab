import Testing
@testable import FormularyRules

@Suite struct FormTests {
    static let signup = """
        # signup.form
        form signup
        label "Sign up"
        field name          name            required
        field email         email           required
        field email-again   email           required   label "Confirm email"
        field phone         phone
        field age           age(min: 18)    required
        field card          credit-card
        field expires       exp-date
        field cvv           cvv
        same email email-again              message "The two emails differ"
        require expires cvv when card
        """

    func form(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> FormDefinition? {
        let outcome = parseText(text, file: "signup.form")
        #expect(outcome.diagnostics == [], "\(DiagnosticFormatter().format(outcome.diagnostics))",
                sourceLocation: sourceLocation)
        guard case .form(let form) = outcome.content else { return nil }
        return form
    }

    /// A registry of plain types; `age` has `min` and `max`.
    static func lookup(_ name: String) -> FieldTypeDefinition? {
        guard ["name", "email", "phone", "age", "credit-card", "exp-date", "cvv"].contains(name) else { return nil }
        let parameters = name != "age" ? [] : [
            Parameter(name: "min", defaultValue: .integer("0"), location: noLocation),
            Parameter(name: "max", defaultValue: .integer("150"), location: noLocation),
        ]
        return FieldTypeDefinition(name: name, parameters: parameters, location: noLocation)
    }
    static let names = ["name", "email", "phone", "age", "credit-card", "exp-date", "cvv"]

    @Test func specExampleParses() throws {
        let signup = try #require(form(Self.signup))
        #expect(signup.name == "signup")
        #expect(signup.label == "Sign up")
        #expect(signup.fields.map(\.key) == ["name", "email", "email-again", "phone", "age", "card", "expires", "cvv"])
        #expect(signup.fields.map(\.type.name) == ["name", "email", "email", "phone", "age", "credit-card", "exp-date", "cvv"])
        #expect(signup.fields.map(\.required) == [true, true, true, false, true, false, false, false])
        #expect(signup.fields[2].label == "Confirm email")
        #expect(signup.fields[4].type.description == "age(min: 18)")
        #expect(signup.fields[4].type.location.column == 21)
        let rules = signup.strippingLocations().rules
        #expect(rules == [
            CrossFieldRule(kind: .same("email", "email-again"),
                           options: RuleOptions(name: "same", message: "The two emails differ", location: noLocation)),
            CrossFieldRule(kind: .require(["expires", "cvv"], when: "card"),
                           options: RuleOptions(name: "require", location: noLocation)),
        ])
        #expect(FormChecker.check(signup, knownTypes: Self.names, lookup: Self.lookup) == [])
    }

    @Test func ruleModifiers() throws {
        let f = try #require(form("""
            form f
            field a email
            field b email
            same a b as emails-match warning message "differ"
            require b when a as b-needed
            """))
        #expect(f.rules.map(\.options.name) == ["emails-match", "b-needed"])
        #expect(f.rules[0].options.severity == .warning)
        #expect(f.rules[0].options.message == "differ")
        #expect(f.rules[1].options.severity == .error)
    }

    @Test func syntaxErrors() {
        func formIDs(_ text: String) -> [String] { ids("form f\n" + text, file: "f.form") }
        #expect(formIDs("field") == ["missing-argument"])
        #expect(formIDs("field a") == ["missing-argument"])
        #expect(formIDs("field a email requird") == ["unexpected-token"])
        #expect(parseText("form f\nfield a email requird", file: "f.form").diagnostics[0].text
                    .contains("did you mean 'required'?"))
        #expect(formIDs("field a email required required") == ["duplicate-modifier"])
        #expect(formIDs("field a email label") == ["missing-argument"])
        #expect(formIDs("field a age(min 1)") == ["unexpected-token"])
        #expect(formIDs("same a") == ["missing-argument"])
        #expect(formIDs("same a b final") == ["unexpected-token"])
        #expect(formIDs("require a") == ["missing-argument"])
        #expect(formIDs("require when b") == ["unexpected-token"])
        #expect(formIDs("require a when") == ["missing-argument"])
        #expect(formIDs("feld a email") == ["unknown-directive"])
        #expect(formIDs("form g") == ["duplicate-header"])
        #expect(formIDs("label \"a\"\nlabel \"b\"") == ["duplicate-directive"])
        #expect(formIDs("field A email") == ["invalid-name"])
        #expect(formIDs("1") == ["unexpected-token"])
        #expect(ids("form") == ["missing-argument"])
        // Several errors, one per line.
        #expect(formIDs("feld a email\nsame a\nfield b") == ["unknown-directive", "missing-argument", "missing-argument"])
    }

    /// A word that is a directive somewhere else gets its own hint, never a "did you mean"
    /// that would send the writer the wrong way (`date` is two letters from `same`).
    @Test func misplacedDirectivesSayWhereTheyBelong() {
        func formMessage(_ line: String) -> String? { parseText("form f\n" + line, file: "f.form").diagnostics.first?.text }
        #expect(formMessage("rule same a b") == "unknown directive 'rule'; a cross-field rule starts with its kind: "
                + "'same A B', 'require A… when B', 'compare A < B' or 'unique A…' (name it with 'as NAME')")
        for word in ["date", "pattern", "length", "mask", "accept"] {
            #expect(formMessage("\(word) x") == "unknown directive '\(word)'; '\(word)' is a directive of field types "
                    + "(.field files); a form gives each field a type instead: 'field KEY TYPE', e.g. 'field card credit-card'")
        }
        #expect(formMessage("required a") == "unknown directive 'required'; did you mean 'require'?")
        #expect(formMessage("feild a email") == "unknown directive 'feild'; did you mean 'field'?")
        func fieldMessage(_ line: String) -> String? { parseText("field x\n" + line).diagnostics.first?.text }
        #expect(fieldMessage("rule length 1...3") == "unknown directive 'rule'; a check starts with its kind "
                + "('length', 'pattern', 'range'…), and 'as NAME' names it")
        #expect(fieldMessage("same a b") == "unknown directive 'same'; 'same' is a cross-field rule of forms (.form files); a type judges one value")
        #expect(fieldMessage("require a when b")?.contains("'field KEY TYPE required'") == true)
        #expect(fieldMessage("form f") == "unknown directive 'form'; a .field file declares one type; a form goes in a .form file of its own")
    }

    @Test func checkerErrors() throws {
        let text = """
            form f
            field email emial
            field age age(mni: 3, max: 2.5)
            field email email
            same email confirm
            require card when age
            """
        let outcome = parseText(text, file: "f.form")
        #expect(outcome.diagnostics == [])
        guard case .form(let f) = outcome.content else { Issue.record("no form"); return }
        let diagnostics = FormChecker.check(f, source: outcome.source, knownTypes: Self.names, lookup: Self.lookup)
        #expect(diagnostics.map(\.id.rawValue) == ["unknown-type", "unknown-parameter", "argument-kind", "duplicate-field",
                                          "undeclared-field", "undeclared-field"])
        #expect(diagnostics[0].text == "unknown type 'emial'; did you mean 'email'?")
        #expect(DiagnosticFormatter().format(diagnostics[0]) == """
            f.form:2:13: error: unknown type 'emial'; did you mean 'email'?
            field email emial
                        ^~~~~
            """)
        #expect(diagnostics[3].message == "field 'email' is already declared on line 2")
        #expect(diagnostics[4].message == "'same' names 'confirm', which the form does not declare")
        #expect(diagnostics[4].location.line == 5)
        #expect(diagnostics[5].message.contains("'card'"))
    }
}
