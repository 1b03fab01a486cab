import Testing
@testable import FormularyRules

/// The messages of cross-field rules: defaults that name fields by their labels, a rule's
/// own message with the same placeholders, their translations (`form *.*.ITEM`, `form
/// FORM.*.RULE`) with the locale's fallbacks, and what the lint says about those keys.
struct FormRuleMessagesTests {
    static let form = """
        form trip
        field starts   iso-date      required   label "Start date"
        field ends     iso-date                 label "End date"
        field adults   age
        field budget   decimal                  label "Budget"
        field email    email                    label "Email"
        field email2   email
        field card     credit-card
        field cvv      cvv                      label "Security code"
        same email email2
        require cvv when card
        compare starts < ends
        compare adults >= budget
        compare starts <= ends   as order   message "{a} comes first, then {b}"
        compare adults != budget as odd     message "Not {value} nor {c}" warning
        unique email
        """

    /// Values on which every cross-field rule fails.
    static let failing = ["starts": "2026-03-02", "ends": "2026-03-01", "adults": "30", "budget": "30",
                          "email": "ada@example.com", "email2": "bob@example.com", "card": "4111 1111 1111 1111"]

    static func catalog() throws -> FieldCatalog { try FieldCatalog.builtin(today: FieldCatalogTests.today) }

    func messages(_ catalog: FieldCatalog, _ values: [String: String] = Self.failing) throws -> [String] {
        try catalog.form(source: Self.form, file: "trip.form").judge(values).formViolations
            .map { "\($0.field ?? "-")|\($0.rule)|\($0.message)" }
    }

    @Test func defaultsNameFieldsByTheirLabelsElseByTheirKeysInQuotes() throws {
        #expect(try messages(Self.catalog()) == [
            "email2|same|Email and 'email2' differ",
            "cvv|require|Security code is required when 'card' is given",
            "ends|compare|Start date must be before End date",
            "ends|order|Start date comes first, then End date",
            "budget|odd|Not {value} nor {c}",
        ])
        var fewer = Self.failing
        fewer["budget"] = "31"
        #expect(try messages(Self.catalog(), fewer).contains("budget|compare|'adults' must be at least Budget"))
    }

    @Test func aRulesOwnMessageWithoutPlaceholdersIsKeptAsWritten() throws {
        let source = "form f\nfield a age\nfield b age\nsame a b message \"They differ: {a}, {b}, {value}\"\n"
        let form = try Self.catalog().form(source: source, file: "f.form")
        #expect(form.judge(["a": "1", "b": "2"]).formViolations.map(\.message) == ["They differ: 'a', 'b', {value}"])
        let plain = try Self.catalog().form(source: "form f\nfield a age\nfield b age\nsame a b message \"No\"\n", file: "f.form")
        #expect(plain.judge(["a": "1", "b": "2"]).formViolations.map(\.message) == ["No"])
    }

    @Test func catalogsTranslateTheDefaultsAndAFormsRulesByName() throws {
        let german = try Self.catalog().adding(messages: """
            form trip.starts.label = "Beginn"
            form trip.ends.label = "Ende"
            form trip.*.order = "Erst {a}, dann {b}"
            """, file: "de.messages").localized("de")
        // The built-in defaults, with the translated labels; `odd`'s own English message
        // stays, since no key translates it.
        #expect(try messages(german) == [
            "email2|same|Email und 'email2' stimmen nicht überein",
            "cvv|require|Security code ist ein Pflichtfeld, wenn 'card' angegeben ist",
            "ends|compare|Beginn muss vor Ende liegen",
            "ends|order|Erst Beginn, dann Ende",
            "budget|odd|Not {value} nor {c}",
        ])
        var fewer = Self.failing
        fewer["budget"] = "31"
        #expect(try messages(german, fewer).contains("budget|compare|'adults' darf nicht kleiner als Budget sein"))
        // `unique` in German: the fields' names and the other entries.
        let judge = try german.form(source: Self.form, file: "trip.form").judge
        #expect(judge.uniqueMessage(0, ids: [3, 4], count: 2) == "Dieselben Angaben zu Email wie Einträge 3, 4")
        #expect(judge.uniqueMessage(0, ids: [3], count: 1) == "Dieselben Angaben zu Email wie Eintrag 3")
        #expect(judge.uniqueMessage(0, ids: [1, 2, 3, 4, 5], count: 7)
                == "Dieselben Angaben zu Email wie Einträge 1, 2, 3, 4, 5 und 2 weitere")
        #expect(try Self.catalog().form(source: Self.form, file: "trip.form").judge.uniqueMessage(0, ids: [9], count: 1)
                == "the same Email as entry 9")
    }

    @Test func theFallbackIsTheRegionThenTheLanguageThenEnglish() throws {
        let mine = try Self.catalog()
            .adding(messages: "form *.*.same = \"PT {a} {b}\"\nform trip.*.order = \"PT ordem\"\n", file: "pt.messages")
            .adding(messages: "form trip.*.order = \"BR ordem\"\n", file: "pt-BR.messages")
        // pt-BR: its own key, then the built-in pt-BR default over the app's pt one.
        let brazil = try messages(mine.localized("pt-BR"))
        #expect(brazil.contains("ends|order|BR ordem"))
        #expect(brazil.contains("email2|same|Email e 'email2' não coincidem"))
        // pt-PT: the app's pt keys; English where no pt catalog has the key.
        let portugal = try messages(mine.localized("pt-PT"))
        #expect(portugal.contains("ends|order|PT ordem"))
        #expect(portugal.contains("email2|same|PT Email 'email2'"))
        #expect(portugal.contains("cvv|require|Security code is required when 'card' is given"))
        #expect(try messages(Self.catalog().localized("pt-PT")) == messages(Self.catalog()))
    }

    @Test func lintKnowsTheKeysAndPlaceholdersOfFormsRules() throws {
        let catalog = try Self.catalog()
        let form = try catalog.form(source: Self.form, file: "trip.form").form
        let file = MessageFileTests.parse("""
            form *.*.same = "{a} ≠ {b}"
            form *.*.sme = "x"
            form *.*.compare-before = "{a} vor {c}"
            form trip.*.order = "{a}, {b}, {value}"
            form trip.*.ordre = "x"
            form trip.*.require = "{label} {when} {a}"
            form trip.cvv.require = "x"
            form trp.*.same = "x"
            form *.*.unique-more = "{ids} + {more} + {fields}"
            """)
        #expect(file.diagnostics.isEmpty)
        let warnings = file.lint(typeNames: catalog.typeNames, type: { try? catalog.definition(named: $0) },
                                 formNames: ["trip"], form: { $0 == "trip" ? form : nil })
        #expect(warnings.map(\.text) == [
            "'sme' is not a default message of forms' rules; did you mean 'same'?",
            "'{c}' is not filled in for 'form *.*.compare-before': the English text does not have it; it has {a}, {b}",
            // A rule's own message says "{value}"? No: it names fields only.
            "'{value}' is not filled in for 'form trip.*.order': the English text does not have it; it has {a}, {b}",
            "form 'trip' has no rule 'ordre'; did you mean 'order'?",
            "'{a}' is not filled in for 'form trip.*.require': the English text does not have it; it has {label}, {when}",
            "'require' is not a message of a form field: they are 'required', 'label'; did you mean 'form trip.*.require'?",
            "no form 'trp'; did you mean 'trip'?",
            "'{fields}' is not filled in for 'form *.*.unique-more': the English text does not have it; it has {ids}, {more}",
        ])
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.id.rawValue.hasPrefix("unknown-") })
        // Fix-its rewrite the key as written after `form`.
        let lines = file.source.lines
        #expect(warnings[0].fixIts.first?.applied(to: lines[1]) == #"form *.*.same = "x""#)
        #expect(warnings[3].fixIts.first?.applied(to: lines[4]) == #"form trip.*.order = "x""#)
        #expect(warnings[5].fixIts.first?.applied(to: lines[6]) == #"form trip.*.require = "x""#)
        #expect(warnings[6].fixIts.first?.applied(to: lines[7]) == #"form trip.*.same = "x""#)
    }

    @Test func wildcardsStandForEveryFormAndFieldOrEveryField() {
        let file = MessageFileTests.parse("""
            form *.*.same = "a"
            form trip.*.order = "b"
            form *.ends.required = "c"
            form *.*.* = "d"
            form trip.*.* = "e"
            """)
        #expect(file.entries.map(\.key) == [MessageKey(anyForm: "same"), MessageKey(form: "trip", rule: "order")])
        #expect(file.diagnostics.map(\.id.rawValue) == ["invalid-message-key", "invalid-message-key", "invalid-message-key"])
    }
}
