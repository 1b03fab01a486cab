import Foundation
import Testing

/// `--locale` and the environment that stands in for it, message catalogs in plugin folders,
/// and `types lint` of a catalog.
@Suite struct LocaleOptionTests {
    @Test func theOptionThenFormularyLocaleThenThePosixVariablesChooseTheLanguage() throws {
        let sandbox = try Sandbox()
        func message(_ arguments: [String], _ environment: [String: String?] = [:]) throws -> String {
            let result = try sandbox.run(arguments + ["check", "age(min: 18)", "17"], environment: environment)
            #expect(result.status == 1, "\(result)")
            return result.stdout
        }
        #expect(try message([]) == "invalid  \"17\"  range: Age must be between 18 and 150\n")
        #expect(try message(["--locale", "de"]).contains("Das Alter muss zwischen 18 und 150 liegen"))
        #expect(try message([], ["FORMULARY_LOCALE": "fr"]).contains("L'âge doit être compris entre 18 et 150"))
        #expect(try message(["--locale", "es"], ["FORMULARY_LOCALE": "fr"]).contains("La edad debe estar entre 18 y 150"))
        #expect(try message([], ["LANG": "pt_BR.UTF-8"]).contains("A idade deve estar entre 18 e 150"))
        #expect(try message([], ["LANG": "pt_BR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"]).contains("Das Alter"))
        #expect(try message([], ["LC_MESSAGES": "de_DE.UTF-8", "LC_ALL": "es_ES.UTF-8"]).contains("La edad"))
        // An empty variable is unset; C and a locale without catalogs keep the English text.
        #expect(try message([], ["FORMULARY_LOCALE": "", "LANG": "de"]).contains("Das Alter"))
        #expect(try message([], ["LANG": "C.UTF-8"]).contains("Age must be"))
        #expect(try message(["--locale", "ja"]).contains("Age must be"))
    }

    @Test func aFoldersCatalogOverridesTheBuiltInOneAndTranslatesItsTypes() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("mine/shoe.field", "field shoe\nlabel \"Shoe size\"\ninteger message \"Whole sizes only\"\n")
        _ = try sandbox.write("mine/de.messages", """
            shoe.integer = "Nur ganze Größen, nicht {value}"
            age.range = "Bitte {min} bis {max} Jahre"
            """)
        let shoe = try sandbox.run("--plugins", "mine", "--locale", "de-CH", "check", "shoe", "4.5")
        #expect(shoe.stdout == "invalid  \"4.5\"  integer: Nur ganze Größen, nicht 4.5\n", "\(shoe)")
        let age = try sandbox.run("--plugins", "mine", "--locale", "de", "check", "age", "abc")
        #expect(age.stdout.contains("integer: Das Alter ist eine ganze Zahl von Jahren, z. B. 42; range: Bitte 0 bis 150 Jahre"), "\(age)")
        let shown = try sandbox.run("--plugins", "mine", "--locale", "de", "--format", "json", "check", "shoe", "x")
        #expect(shown.stdout.contains("\"message\":\"Nur ganze Größen, nicht x\""), "\(shown)")
    }

    @Test func lintReportsACatalogsProblemsWithTheirPlaces() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("mine/shoe.field", "field shoe\ninteger\n")
        _ = try sandbox.write("mine/fr.messages", "shoe.intger = \"Entier\"\nshoe.integer = \"{size}\"\n")
        let warned = try sandbox.run("--plugins", "mine", "types", "lint", "mine/fr.messages")
        #expect(warned.status == 0, "warnings alone pass: \(warned)")
        #expect(!warned.stdout.contains("ok"), "a file with warnings is not listed as ok: \(warned)")
        #expect(warned.stderr.contains("""
            mine/fr.messages:1:1: warning: 'intger' is not a rule of type 'shoe'; did you mean 'integer'?
            shoe.intger = "Entier"
            ^~~~~~~~~~~
            """), "\(warned)")
        #expect(warned.stderr.contains("mine/fr.messages:2:1: warning: '{size}' is not filled in for 'shoe.integer'"), "\(warned)")

        _ = try sandbox.write("drafts/français.messages", "shoe.integer \"x\"\n")
        let broken = try sandbox.run("--plugins", "mine", "--format", "json", "types", "lint", "drafts/français.messages")
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.stdout.contains("\"id\":\"invalid-locale\",\"domain\":\"messages\""), "\(broken)")
        #expect(broken.stdout.contains("\"id\":\"invalid-message-line\""), "\(broken)")
    }

    /// A run stores its messages in the locale it was made in and says which; a later run
    /// in another locale judges in full rather than carry the other language's rows.
    @Test func aRunKeepsTheMessagesOfItsLocaleAndSaysWhich() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("f.form", "form f\nfield age age required\n")
        _ = try sandbox.write("a.csv", "age\n17\n200\n")
        for command in [["init"], ["forms", "add", "f.form"], ["import", "--form", "f", "a.csv"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 0, "\(result)")
        }
        let german = try sandbox.run("--locale", "de", "--format", "json", "validate")
        #expect(german.stdout.contains("\"today\":\"2026-11-29\",\"locale\":\"de\""), "\(german)")
        let text = try sandbox.run("--locale", "de", "validate")
        #expect(text.stdout.contains("today 2026-11-29, messages in de."), "\(text)")
        let runs = try sandbox.run("--format", "json", "runs", "list")
        #expect(runs.stdout.contains("\"status\":\"complete\",\"locale\":\"de\"}"), "\(runs)")
        let report = try sandbox.run("report", "--run", "1")
        #expect(report.stdout.contains("locale    de"), "\(report)")
        #expect(report.stdout.contains("Das Alter muss zwischen 0 und 150 liegen"), "\(report)")
        let json = try sandbox.run("--format", "json", "report", "--run", "1")
        #expect(json.stdout.contains("\"locale\":\"de\""), "\(json)")

        // Run 3, in the types' own texts: nothing carried from the German run 2, English messages.
        let english = try sandbox.run("--format", "json", "validate")
        #expect(english.stdout.contains("\"locale\":null") && english.stdout.contains("\"entries_carried\":0"), "\(english)")
        let second = try sandbox.run("report", "--run", "3")
        #expect(second.stdout.contains("Age must be between 0 and 150") && !second.stdout.contains("locale "), "\(second)")
        // Run 4, in German again, carries nothing from the English run 3 either.
        let again = try sandbox.run("--locale", "de", "--format", "json", "validate")
        #expect(again.stdout.contains("\"entries_carried\":0"), "\(again)")
        // The type versions the runs recorded are the types' own, whatever the locale.
        let versions = try sandbox.query("SELECT count(*) FROM type_versions WHERE name = 'age'")
        #expect(versions.first?.first == "1", "\(versions)")
        let verified = try sandbox.run("audit", "verify")
        #expect(verified.status == 0, "\(verified)")

        // The database stores no catalogs: types add says where one goes.
        _ = try sandbox.write("de.messages", "age.label = \"Alter\"\n")
        let added = try sandbox.run("types", "add", "de.messages")
        #expect(added.status == 2 && added.stderr.contains("de.messages is a message catalog, and the database stores none"),
                "\(added)")
    }

    /// A run records which translations its messages came from: the next run in the same
    /// locale carries results forward while the catalogs are unchanged, and judges in full,
    /// in the new words, once a catalog was edited (an old run's rows would keep the old ones).
    @Test func anEditedCatalogIsNotReadInItsOldWords() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("f.form", "form f\nfield age age required\n")
        _ = try sandbox.write("a.csv", "age\n17\n200\n")
        _ = try sandbox.write("mine/de.messages", "age.range = \"Zwischen {min} und {max}, bitte\"\n")
        for command in [["init"], ["forms", "add", "f.form"], ["import", "--form", "f", "a.csv"]] {
            let result = try sandbox.run(command)
            #expect(result.status == 0, "\(result)")
        }
        let german = ["--plugins", "mine", "--locale", "de", "--format", "json", "validate"]
        #expect(try sandbox.run(german).stdout.contains("\"entries_carried\":0"))
        let unchanged = try sandbox.run(german)
        #expect(unchanged.stdout.contains("\"entries_carried\":2"), "unchanged catalogs carry: \(unchanged)")
        _ = try sandbox.write("mine/de.messages", "age.range = \"Bitte {min} bis {max} Jahre\"\n")
        let edited = try sandbox.run(german)
        #expect(edited.stdout.contains("\"entries_carried\":0"), "an edited catalog judges again: \(edited)")
        let report = try sandbox.run("report", "--run", "3")
        #expect(report.stdout.contains("Bitte 0 bis 150 Jahre") && !report.stdout.contains("Zwischen"), "\(report)")
        let digests = try sandbox.query("SELECT count(DISTINCT messages) FROM runs WHERE locale = 'de'")
        #expect(digests.first?.first == "2", "\(digests)")
        // Without a locale there are no translations to record.
        _ = try sandbox.run("validate")
        #expect(try sandbox.query("SELECT messages IS NULL FROM runs WHERE id = 4").first?.first == "1")
        // The audit log's run digests cover the translations' digest: one changed by hand is found.
        #expect(try sandbox.run("audit", "verify").status == 0)
        _ = try sandbox.query("UPDATE runs SET messages = '\(String(repeating: "0", count: 64))' WHERE id = 2")
        let tampered = try sandbox.run("audit", "verify")
        #expect(tampered.status == 1 && tampered.stdout.contains("run 2"), "\(tampered)")
    }

    /// A form's `required` names the field's label, says its own `message`, and comes in the
    /// locale with the rest.
    @Test func formsSayRequiredInTheLocaleWithTheirLabels() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.write("mine/signup.form", """
            form signup
            field full-name  name   required   label "Full name"
            field age        age    required
            field nick       username  required message "Pick a nickname"
            """)
        _ = try sandbox.write("mine/de.messages", "form signup.nick.required = \"Bitte einen Spitznamen\"\n")
        let english = try sandbox.run("--plugins", "mine", "--format", "json", "forms", "judge", "signup")
        for message in ["Full name is required", "'age' is required", "Pick a nickname"] {
            #expect(english.stdout.contains(message), "\(english)")
        }
        let german = try sandbox.run("--plugins", "mine", "--locale", "de", "--format", "json", "forms", "judge", "signup")
        for message in ["Full name ist ein Pflichtfeld", "'age' ist ein Pflichtfeld", "Bitte einen Spitznamen"] {
            #expect(german.stdout.contains(message), "\(german)")
        }
        let lint = try sandbox.run("--plugins", "mine", "types", "lint", "mine/de.messages")
        #expect(lint.status == 0 && lint.stdout == "ok  mine/de.messages\n", "\(lint)")
    }
}

