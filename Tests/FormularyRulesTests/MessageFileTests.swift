import Testing
@testable import FormularyRules

/// Message catalogs on their own: the line format, what is reported where, locale tags.
struct MessageFileTests {
    static func parse(_ text: String, file: String = "de.messages") -> MessageFile {
        MessageFile.parse(bytes: Array(text.utf8), file: file)
    }

    @Test func linesAreKeysAndStringsWithCommentsAndBlankLines() {
        let file = Self.parse("""
            # German
            age.range = "Zwischen {min} und {max}"   # trailing comment

              form signup.age.required="Bitte \\"Alter\\" angeben"
            age.label = "Alter"
            """, file: "mine/pt-BR.messages")
        #expect(file.diagnostics.isEmpty)
        #expect(file.locale == "pt-BR")
        #expect(file.entries.map(\.key.description) == ["age.range", "form signup.age.required", "age.label"])
        #expect(file.entries.map(\.text) == ["Zwischen {min} und {max}", "Bitte \"Alter\" angeben", "Alter"])
        #expect(file.entries[1].key == MessageKey(form: "signup", field: "age", item: "required"))
        #expect(file.entries[1].location == SourceLocation(file: "mine/pt-BR.messages", line: 4, column: 8, length: 19))
    }

    @Test func badLinesAreReportedWithTheirPlaceAndSkipped() {
        let file = Self.parse("""
            age.range "no equals"
            age = "one part"
            form signup.age = "two parts"
            Age.range = "capital"
            age.range = "ok"
            age.range = "again"
            age.integer = "open
            age.help = "a" "b"
            age.label =
            """)
        #expect(file.entries.map(\.key.description) == ["age.range"])
        #expect(file.diagnostics.map(\.id.rawValue) == [
            "invalid-message-line", "invalid-message-key", "invalid-message-key", "invalid-message-key",
            "duplicate-message-key", "unterminated-string", "invalid-message-line", "invalid-message-line",
        ])
        #expect(file.diagnostics.allSatisfy { $0.severity == .error && $0.id.domain == .messages || $0.id.domain == .language })
        #expect(DiagnosticFormatter().format(file.diagnostics[4]) == """
            de.messages:6:1: error: 'age.range' is already given on line 5
            age.range = "again"
            ^~~~~~~~~
            """)
        #expect(DiagnosticFormatter().format(file.diagnostics[0]) == """
            de.messages:1:11: error: expected '=' after 'age.range', found string "no equals"; write KEY = "TEXT", e.g. age.range = "…"
            age.range "no equals"
                      ^~~~~~~~~~~
            """)
        #expect(file.diagnostics[7].message == "expected the message, a string, after '='")
    }

    @Test func theFileNameMustBeALocale() {
        for name in ["german.messages", "DE.messages", "pt_BR.messages", "de.txt"] {
            let file = Self.parse("age.label = \"Alter\"", file: "x/" + name)
            #expect(file.locale == nil)
            #expect(file.diagnostics.map(\.id.rawValue) == ["invalid-locale"], "\(name)")
        }
        #expect(Self.parse("", file: "zh-Hant-TW.messages").locale == "zh-Hant-TW")
    }

    @Test func invalidUTF8IsReportedOnItsLine() {
        let file = MessageFile.parse(bytes: Array("age.label = \"A\"\nage.help = \"".utf8) + [0xFF, 0x22], file: "de.messages")
        #expect(file.diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        #expect(file.diagnostics[0].location.line == 2)
        #expect(file.entries.count == 1)
    }

    @Test func localeTagsAreReadLenientlyAndFallBackToTheLanguage() {
        #expect(LocaleTag.canonical("pt_BR.UTF-8") == "pt-BR")
        #expect(LocaleTag.canonical("PT-br") == "pt-BR")
        #expect(LocaleTag.canonical("de_DE@euro") == "de-DE")
        #expect(LocaleTag.canonical("zh-hant-tw") == "zh-Hant-TW")
        #expect(LocaleTag.canonical("es-419") == "es-419")
        for none in ["C", "POSIX", "", "C.UTF-8", "english!", "de-"] { #expect(LocaleTag.canonical(none) == nil, "\(none)") }
        #expect(LocaleTag.fallbacks(of: "zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh"])
        #expect(LocaleTag.fallbacks(of: "de") == ["de"])
    }

    @Test func lintWarnsAboutKeysAndPlaceholdersThatNameNothing() throws {
        let catalog = try FieldCatalog.builtin(today: FieldCatalogTests.today)
        let file = Self.parse("""
            age.range = "Zwischen {min} und {max}"
            aeg.range = "typo in the type"
            age.rnage = "typo in the rule"
            age.integer = "{value} ist keine Zahl von {unit}"
            phrase.length = "{min} bis {max}, nicht {places}"
            us-zip.help = "no help to translate"
            age.help = "Jahre {min}"
            """)
        let warnings = file.lint(typeNames: catalog.typeNames, type: { try? catalog.definition(named: $0) },
                                 formNames: [], form: { _ in nil })
        #expect(warnings.map(\.id.rawValue) == ["unknown-message-key", "unknown-message-key", "unknown-placeholder",
                                                 "unknown-placeholder", "unknown-placeholder", "unknown-message-key",
                                                 "unknown-placeholder"])
        #expect(warnings.allSatisfy { $0.severity == .warning })
        #expect(warnings[0].text == "no type 'aeg'; did you mean 'age'?")
        #expect(warnings[0].fixIts.map(\.replacement) == ["age.range"])
        #expect(warnings[1].fixIts.map(\.replacement) == ["age.range"])
        // `age.integer`'s English text has no placeholder, so even `{value}` is flagged.
        #expect(warnings[2].text == "'{value}' is not filled in for 'age.integer': the English text does not have it; it has none")
        #expect(warnings[3].message == "'{unit}' is not filled in for 'age.integer': the English text does not have it")
        // A default message may use the value and the bounds.
        #expect(warnings[4].message.hasPrefix("'{places}' is not filled in for 'phrase.length'"))
        #expect(warnings[4].notes.map(\.message) == ["it has {value}, {min}, {max}"])
        #expect(warnings[5].text == "type 'us-zip' has no help to translate")
        #expect(warnings[6].text.hasPrefix("'{min}' is not filled in for 'age.help'"))
        #expect(DiagnosticFormatter().format(warnings[0]).hasPrefix("de.messages:2:1: warning: no type 'aeg'"))
    }

    /// Form keys name a form, one of its fields, and `required` or `label`.
    @Test func lintChecksFormKeys() throws {
        let catalog = try FieldCatalog.builtin(today: FieldCatalogTests.today)
        let form = try catalog.form(source: "form signup\nfield age age required\n", file: "signup.form").form
        let file = Self.parse("""
            form signup.age.required = "{label} fehlt"
            form signup.aeg.required = "x"
            form singup.age.required = "x"
            form signup.age.requird = "x"
            form signup.age.label = "Alter {min}"
            form *.*.required = "{label} fehlt"
            form *.age.required = "x"
            """)
        let warnings = file.lint(typeNames: catalog.typeNames, type: { try? catalog.definition(named: $0) },
                                 formNames: ["signup"], form: { $0 == "signup" ? form : nil })
        #expect(warnings.map(\.text) == [
            "form 'signup' has no field 'aeg'; did you mean 'age'?",
            "no form 'singup'; did you mean 'signup'?",
            "'requird' is not a message of a form field: they are 'required', 'label'; did you mean 'required'?",
            "'{min}' is not filled in for 'form signup.age.label': the English text does not have it; it has none",
        ])
        // `*` stands for every form and field in `form *.*.required` only.
        #expect(file.diagnostics.map(\.id.rawValue) == ["invalid-message-key"])
        #expect(file.entries.map(\.key).contains(MessageKey.anyRequired))
    }
}
