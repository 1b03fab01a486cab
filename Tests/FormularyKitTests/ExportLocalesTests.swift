import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

/// The export's `locales`: per locale with catalogs, the texts that differ from the exported
/// ones, with the fallbacks and inheritance the engine applies already applied.
struct ExportLocalesTests {
    @Test func theLocalesHoldWhatALocalizedCatalogShows() throws {
        let visa = PluginFile(path: "mine/visa.field", bytes: Array("field visa extends credit-card\nlabel \"Visa\"\n".utf8),
                              source: .database)
        let pt = PluginFile(path: "mine/pt.messages", bytes: Array("age.help = \"Anos\"\n".utf8), source: .database)
        let (_, doc) = try ExportTests.export(extra: [visa, pt])
        let locales = try #require(doc["locales"]?.objectValue)
        #expect(Array(locales.keys) == ["de", "es", "fr", "pt", "pt-BR"])
        let age = doc["locales"]?["de"]?["types"]?["age"]
        #expect(age?["label"]?.stringValue == "Alter")
        #expect(age?["rules"]?["range"]?.stringValue == "Das Alter muss zwischen {min} und {max} liegen")
        // pt-BR keeps its own help over pt's; visa takes credit-card's luhn, not its label.
        #expect(doc["locales"]?["pt-BR"]?["types"]?["age"]?["help"]?.stringValue == "Anos completos")
        #expect(doc["locales"]?["pt"]?["types"]?["age"]?["help"]?.stringValue == "Anos")
        let german = doc["locales"]?["de"]?["types"]?["visa"]
        #expect(german?["rules"]?["luhn"]?.stringValue == "Die Kartennummer ist ungültig" && german?["label"] == nil)
        // Forms: the required message as the locale says it, the field's label filled in.
        let field = doc["locales"]?["fr"]?["forms"]?["signup"]?["email-again"]
        #expect(field?["required_message"]?.stringValue == "Confirm email est obligatoire")
        #expect(doc["forms"]?.arrayValue?.first?["fields"]?.arrayValue?[2]["required_message"]?.stringValue
                == "Confirm email is required")
    }

    /// Forms' rules: the catalogs' keys as spelled, `*` for every field (a form's rule by its
    /// name) and for every form (the defaults), templates a runtime fills in.
    @Test func theLocalesHoldTheTemplatesOfFormsRules() throws {
        let de = PluginFile(path: "mine/de.messages", bytes: Array(#"""
            form signup.*.require = "Ohne {label} geht es nicht, wenn {when} da ist"
            form signup.*.nope = "no such rule: not exported"
            """#.utf8), source: .database)
        let (_, doc) = try ExportTests.export(extra: [de])
        let german = doc["locales"]?["de"]?["forms"]
        #expect(german?["signup"]?["*"]?.objectValue.map { Array($0.keys) } == ["require"])
        #expect(german?["signup"]?["*"]?["require"]?.stringValue == "Ohne {label} geht es nicht, wenn {when} da ist")
        let defaults = try #require(german?["*"]?["*"]?.objectValue)
        #expect(Array(defaults.keys) == RuleTexts.items)
        #expect(defaults["compare-before"]?.stringValue == "{a} muss vor {b} liegen")
        #expect(doc["locales"]?["fr"]?["forms"]?["signup"]?["*"] == nil)
        // The English templates are the runtime's own; a rule's own `message` is exported as written.
        #expect(doc["forms"]?.arrayValue?.first?["rules"]?.arrayValue?.first?["message"]?.stringValue == "The two emails differ")
    }
}
