import Foundation
import Testing
@testable import FormularyRules

/// `FieldCatalog.localized(_:)`: translated messages and texts, the fallback chain, and the
/// built-in catalogs of plugins/.
struct LocalizedCatalogTests {
    static let today = FieldCatalogTests.today

    @Test func aLocalizedCatalogJudgesInItsLanguage() throws {
        let english = try FieldCatalog.builtin(today: Self.today)
        let german = english.localized("de")
        #expect(german.locale == "de" && english.locale == nil)
        #expect(english.locales == ["de", "es", "fr", "pt-BR"])
        let age = try german.fieldType("age(min: 18)")
        #expect(age.validate("17").message == "Das Alter muss zwischen 18 und 150 liegen")
        #expect(age.validate("x").violations.map(\.message) == ["Das Alter ist eine ganze Zahl von Jahren, z. B. 42",
                                                                "Das Alter muss zwischen 18 und 150 liegen"])
        #expect(try german.definition(named: "age").label == "Alter")
        // The English catalog is as it was: a localized catalog compiles types of its own.
        #expect(try english.fieldType("age(min: 18)").validate("17").message == "Age must be between 18 and 150")
        #expect(try german.fieldType("age(min: 18)") === age)
        // {value} and parameters are filled in as in the English text.
        #expect(try german.fieldType("iso-date").validate("2023-02-30").message == "2023-02-30 ist kein gültiges Datum")
        #expect(try german.fieldType("cvv(digits: 4)").validate("123").message == "Die Kartenprüfnummer hat 4 Ziffern")
        // A default message translated with its bounds.
        #expect(try german.fieldType("username").validate("ab").message == "Muss 3 bis 20 Zeichen lang sein")
        #expect(try english.localized("fr").fieldType("credit-card").validate("4111 1111 1111 1112").message
                == "Le numéro de carte n'est pas valide")
        #expect(try english.localized("es").fieldType("phone-intl(region: \"GB\")").validate("+4412345678901").message
                == "GB (Reino Unido): los números son +44 y 7, 9 o 10 dígitos")
    }

    @Test func theFallbackIsTheLanguageThenTheTypesOwnText() throws {
        let english = try FieldCatalog.builtin(today: Self.today)
        #expect(try english.localized("de_AT.UTF-8").fieldType("age").validate("200").message
                == "Das Alter muss zwischen 0 und 150 liegen")
        #expect(try english.localized("pt-BR").fieldType("age").validate("200").message
                == "A idade deve estar entre 0 e 150")
        // No `pt` catalog: Portuguese of Portugal falls back to the types' own words.
        #expect(try english.localized("pt-PT").fieldType("age").validate("200").message == "Age must be between 0 and 150")
        #expect(try english.localized("C").locale == nil)
        // An app's `pt` catalog serves pt-PT, and pt-BR where pt-BR has no key.
        let mine = try english.adding(messages: "age.range = \"Entre {min} e {max}\"\nage.integer = \"Inteiro\"",
                                      file: "pt.messages")
        #expect(try mine.localized("pt-PT").fieldType("age").validate("200").message == "Entre 0 e 150")
        let brazil = try mine.localized("pt-BR").fieldType("age").validate("x").violations.map(\.message)
        #expect(brazil == ["A idade é um número inteiro de anos, p. ex. 42", "A idade deve estar entre 0 e 150"])
    }

    @Test func aCatalogAddedLaterOverridesTheBuiltInOneKeyByKey() throws {
        let german = try FieldCatalog.builtin(today: Self.today).localized("de")
            .adding(messages: "age.range = \"Bitte {min} bis {max} Jahre\"", file: "de.messages")
        #expect(german.locale == "de")
        #expect(try german.fieldType("age").validate("x").violations.map(\.message)
                == ["Das Alter ist eine ganze Zahl von Jahren, z. B. 42", "Bitte 0 bis 150 Jahre"])
        #expect(throws: FormularyError.self) { try german.adding(messages: "age.range \"x\"", file: "de.messages") }
        #expect(throws: FormularyError.self) { try german.adding(messages: "", file: "deutsch.messages") }
    }

    /// A type inherits its base's translation of a rule it took over unchanged, not of one
    /// it rewrote; its own key wins over both.
    @Test func inheritedRulesTakeTheBasesTranslation() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
            .adding(source: "field visa extends credit-card\nlabel \"Visa card\"\npattern /4.*/ as visa-prefix", file: "visa.field")
            .localized("de")
        let visa = try catalog.fieldType("visa")
        #expect(visa.validate("4111 1111 1111 1112").message == "Die Kartennummer ist ungültig")
        // Its label is its own, which the credit-card translation does not translate.
        #expect(try catalog.definition(named: "visa").label == "Visa card")
        let rewritten = try catalog.adding(source: """
            field strict-card extends credit-card
            drop luhn
            checksum luhn message "Wrong number"
            """, file: "strict-card.field")
        #expect(try rewritten.fieldType("strict-card").validate("4111 1111 1111 1112").message == "Wrong number")
        let own = try rewritten.adding(messages: "strict-card.luhn = \"Falsche Nummer\"", file: "de.messages")
        #expect(try own.fieldType("strict-card").validate("4111 1111 1111 1112").message == "Falsche Nummer")
    }

    @Test func aFolderBringsItsCatalogs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locale-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "field shoe\nlabel \"Shoe size\"\ninteger message \"Whole sizes only\"\n"
            .write(to: folder.appendingPathComponent("shoe.field"), atomically: true, encoding: .utf8)
        try "shoe.integer = \"Nur ganze Größen\"\nshoe.label = \"Schuhgröße\"\n"
            .write(to: folder.appendingPathComponent("de.messages"), atomically: true, encoding: .utf8)
        let catalog = try FieldCatalog.builtin(today: Self.today).adding(folder: folder.path).localized("de")
        #expect(try catalog.fieldType("shoe").validate("4.5").message == "Nur ganze Größen")
        #expect(try catalog.definition(named: "shoe").label == "Schuhgröße")
        try "shoe.integer \"x\"\n".write(to: folder.appendingPathComponent("fr.messages"), atomically: true, encoding: .utf8)
        #expect(throws: FormularyError.self) { try FieldCatalog.builtin(today: Self.today).adding(folder: folder.path) }
    }

    /// The embedded copy must equal plugins/*.messages byte for byte (`make embed`).
    @Test func embeddedCatalogsEqualThePluginsFolder() throws {
        let names = try FieldCatalogTests.expectEmbedded(BuiltinMessageFiles.files, ending: ".messages")
        #expect(names == ["de.messages", "es.messages", "fr.messages", "pt-BR.messages"])
    }

    /// Every built-in catalog is clean: each key names a rule or text of a built-in type, its
    /// placeholders are the English text's, and it translates every message of every type
    /// and every default of forms' rules.
    @Test func builtInCatalogsNameRealRulesAndTranslateEveryMessage() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        var expected = Set(RuleTexts.items.map { MessageKey(anyForm: $0).description })
        for name in catalog.typeNames {
            let definition = try catalog.definition(named: name)
            for rule in TypeResolver.ruleNames(of: definition) { expected.insert("\(name).\(rule)") }
            if definition.label != nil { expected.insert("\(name).label") }
            if definition.help != nil { expected.insert("\(name).help") }
        }
        for file in FieldCatalog.builtinMessageFiles {
            #expect(file.diagnostics.isEmpty, "\(file.source.file): \(file.diagnostics.map(\.text))")
            let warnings = file.lint(typeNames: catalog.typeNames, type: { try? catalog.definition(named: $0) },
                                     formNames: [], form: { _ in nil })
            #expect(warnings.isEmpty, "\(DiagnosticFormatter().format(warnings))")
            // Labels that are names (GTIN, IBAN, ISBN) stay as they are.
            let missing = expected.subtracting(file.entries.map(\.key.description))
                .subtracting(["gtin.label", "iban.label", "isbn.label"])
            #expect(missing.isEmpty, "\(file.source.file) lacks \(missing.sorted())")
        }
    }
}
