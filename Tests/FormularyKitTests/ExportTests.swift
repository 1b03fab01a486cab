import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit

@Suite struct ExportTests {
    static let today = CivilDate(iso: "2026-11-29")!

    static let signup = """
    form signup
    label "Sign up"
    field name          name            required
    field email         email           required
    field email-again   email           required   label "Confirm email"
    field age           age(min: 18)    required
    field card          credit-card
    field expires       exp-date
    field cvv           cvv
    same email email-again              message "The two emails differ"
    require expires cvv when card       warning
    """

    static func registry(extra: [PluginFile] = []) throws -> Registry {
        try Registry.load(folders: [], extraFiles: [
            PluginFile(path: "forms/signup.form", bytes: Array(signup.utf8), source: .database),
        ] + extra)
    }

    static func export(extra: [PluginFile] = []) throws -> (RegistryExport.Export, JSONValue) {
        let result = RegistryExport.make(try registry(extra: extra), today: today)
        return (result, result.document)
    }

    static func type(_ name: String, in doc: JSONValue) -> JSONValue? {
        doc["types"]?.arrayValue?.first { $0["name"]?.stringValue == name }
    }

    @Test func everyBuiltInTypeIsExportedInNameOrder() throws {
        let (result, doc) = try Self.export()
        #expect(doc["formulary_export_version"]?.intValue == RegistryExport.formatVersion)
        let names = doc["types"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        let builtins = Registry.builtinFiles.map { Registry.stem(of: $0.path) }.sorted()
        #expect(!builtins.isEmpty)
        #expect(names == builtins)
        #expect(result.unavailable.isEmpty)
        #expect(doc["unavailable"]?.arrayValue?.isEmpty == true)
    }

    @Test func theDocumentRoundTripsAndIsTheSameEveryTime() throws {
        let (first, _) = try Self.export()
        let (second, _) = try Self.export()
        #expect(first.bytes == second.bytes)
        #expect(first.bytes.last == 0x0A)
        let parsed = try JSONValue(parsing: Array(first.bytes.dropLast()))
        #expect(parsed == first.document)
        // Top-level and type members come in the documented order.
        #expect(parsed.objectValue?.keys == ["formulary_export_version", "types", "forms", "unavailable", "locales"])
        #expect(Self.type("age", in: parsed)?.objectValue?.keys == [
            "name", "version", "source", "extends", "label", "help", "placeholder", "keyboard",
            "autocapitalize", "autocomplete", "secure", "timing", "decimal_separator", "parameters", "normalize", "mask", "masks", "checks",
            "examples"])
    }

    @Test func aTypeCarriesItsDecimalSeparator() throws {
        let comma = "field messwert\ndecimal-separator \",\"\ndecimal places 2\nrange 0...10.5\n"
        let (_, doc) = try Self.export(extra: [PluginFile(path: "messwert.field", bytes: Array(comma.utf8), source: .database)])
        #expect(Self.type("messwert", in: doc)?["decimal_separator"]?.stringValue == ",")
        // Range bounds stay in the language's spelling, with a point.
        #expect(Self.type("messwert", in: doc)?["checks"]?[1]?["arguments"]?["range"]?["upper"]?.stringValue == "10.5")
        #expect(Self.type("decimal", in: doc)?["decimal_separator"]?.stringValue == ".")
    }

    @Test func creditCardCarriesItsDescriptionMaskAndChecks() throws {
        let registry = try Self.registry()
        let (_, doc) = try Self.export()
        let card = try #require(Self.type("credit-card", in: doc))
        guard case .success(let definition)? = registry.definition(named: "credit-card") else {
            Issue.record("credit-card does not resolve"); return
        }
        #expect(card["version"]?.stringValue == Registry.version(of: definition))
        #expect(card["source"]?.stringValue == "builtin")
        #expect(card["label"]?.stringValue == "Credit Card Number")
        #expect(card["placeholder"]?.stringValue == "0000 0000 0000 0000")
        #expect(card["keyboard"]?.stringValue == "number-pad")
        #expect(card["autocapitalize"]?.isNull == true)
        #expect(card["autocomplete"]?.stringValue == "cc-number")
        #expect(Self.type("age", in: doc)?["autocomplete"]?.isNull == true)
        #expect(card["secure"]?.boolValue == false)
        #expect(card["timing"]?.stringValue == "leaving")
        #expect(card["normalize"]?[0]?["step"]?.stringValue == "strip")
        #expect(card["normalize"]?[0]?["characters"]?.stringValue == " -")
        #expect(card["mask"]?["pattern"]?.stringValue == "0000 0000 0000 0000")
        #expect(card["mask"]?["rule"]?.stringValue == "visa")
        #expect(card["mask"]?["checks_fill"]?.boolValue == true)
        #expect(card["mask"]?["message"]?.stringValue == "A Visa card number has 13, 16 or 19 digits")
        // Every mask, in order, with its `when`, named after its brand; `mask` is the last.
        let masks = try #require(card["masks"]?.arrayValue)
        #expect(masks.count == 43)
        let amex = try #require(masks.first { $0["rule"]?.stringValue == "amex" })
        #expect(amex["pattern"]?.stringValue == "0000 000000 00000")
        #expect(amex["when"]?["pattern"]?.stringValue == "(?:34|37).*")
        #expect(amex["when"]?["flags"]?.stringValue == "")
        // Every mask has a condition: a number of no brand takes none.
        #expect(masks.allSatisfy { $0["when"]?.isNull == false })
        for key in ["pattern", "rule", "message"] { #expect(masks[42][key] == card["mask"]?[key]) }
        #expect(card["checks"]?[0]?["rule"]?.stringValue == "brand")
        let luhn = try #require(card["checks"]?[1])
        #expect(luhn["rule"]?.stringValue == "luhn")
        #expect(luhn["kind"]?.stringValue == "checksum")
        #expect(luhn["arguments"]?["algorithm"]?.stringValue == "luhn")
        #expect(luhn["severity"]?.stringValue == "error")
        #expect(luhn["final_only"]?.boolValue == false)
        #expect(luhn["message"]?.stringValue == "Card number is not valid")
        let examples = card["examples"]?.arrayValue ?? []
        #expect(examples.contains { $0["value"]?.stringValue == "4111111111111111"
                                    && $0["formats"]?.stringValue == "4111 1111 1111 1111" })
        #expect(examples.contains { $0["expect"]?.stringValue == "reject"
                                    && $0["rules"]?.arrayValue == ["luhn"] })
    }

    @Test func parametersAndParameterReferences() throws {
        let (_, doc) = try Self.export()
        let age = try #require(Self.type("age", in: doc))
        #expect(age["parameters"]?.arrayValue == [
            ["name": "min", "kind": "integer", "default": .number("0"), "default_text": "0"],
            ["name": "max", "kind": "integer", "default": .number("150"), "default_text": "150"],
        ])
        let range = try #require(age["checks"]?.arrayValue?.first { $0["kind"]?.stringValue == "range" })
        #expect(range["arguments"]?["range"] == [
            "lower": ["parameter": "min"], "lower_exclusive": false,
            "upper": ["parameter": "max"], "upper_inclusive": true,
        ])
        #expect(range["message"]?.stringValue == "Age must be between {min} and {max}")
        let integer = try #require(age["checks"]?[0])
        #expect(integer["kind"]?.stringValue == "integer")
        #expect(integer["arguments"] == .object([:]))
    }

    @Test func dateRangesStayRelativeToToday() throws {
        let (_, doc) = try Self.export()
        let exp = try #require(Self.type("exp-date", in: doc))
        let date = try #require(exp["checks"]?.arrayValue?.first { $0["kind"]?.stringValue == "date" })
        #expect(date["arguments"]?["format"]?.stringValue == "MM/yy")
        // The bounds are parameters whose defaults are offsets from today, resolved by the client.
        #expect(date["arguments"]?["range"]?["lower"] == .object(["parameter": "earliest"]))
        #expect(date["arguments"]?["range"]?["upper"] == .object(["parameter": "latest"]))
        let parameters = try #require(exp["parameters"]?.arrayValue)
        #expect(parameters.map { $0["default"]?.stringValue } == ["today", "today+12y"])
    }

    /// `{01-12}/00` pads a month while typing; a runtime that only formats sees its slots.
    @Test func numberGroupsAreExportedAsDigitSlots() throws {
        let (_, doc) = try Self.export()
        let exp = try #require(Self.type("exp-date", in: doc))
        #expect(exp["mask"]?["pattern"]?.stringValue == "00/00")
        #expect(exp["masks"]?.arrayValue?.first?["pattern"]?.stringValue == "00/00")
        #expect(exp["mask"]?["message"]?.stringValue == "Use MM/YY, e.g. 09/28")
        // As written, for an editor that pads the month while the user types.
        #expect(exp["mask"]?["typing_pattern"]?.stringValue == "{01-12}/00")
        #expect(exp["masks"]?.arrayValue?.first?["typing_pattern"]?.stringValue == "{01-12}/00")
        let iso = try #require(Self.type("iso-date", in: doc))
        #expect(iso["mask"]?["pattern"]?.stringValue == "0000-00-00")
        #expect(iso["mask"]?["typing_pattern"]?.stringValue == "0000-{01-12}-{01-31}")
    }

    /// A decimal written `1.50` keeps its text for `{NAME}` in messages, which a JSON number
    /// read as a double would not (`1.5`), and so do the form's arguments.
    @Test func parameterAndArgumentTextsAreExact() throws {
        let type = PluginFile(path: "mine/fee.field", bytes: Array("""
            field fee
            param step = 1.50
            param most = 0010
            decimal places 2
            range 0...$step   message "At most {step}"
            """.utf8), source: .database)
        let form = PluginFile(path: "mine/fees.form", bytes: Array("""
            form fees
            field fee   fee(step: 2.50, most: 7)
            field plain fee
            """.utf8), source: .database)
        let (_, doc) = try Self.export(extra: [type, form])
        let fee = try #require(Self.type("fee", in: doc))
        #expect(fee["parameters"]?[0]?["default_text"]?.stringValue == "1.50")
        #expect(fee["parameters"]?[0]?["default"] == .number("1.50"))
        #expect(fee["parameters"]?[1]?["default_text"]?.stringValue == "0010")
        #expect(fee["parameters"]?[1]?["default"] == .string("0010"))
        let fees = try #require(doc["forms"]?.arrayValue?.first { $0["name"]?.stringValue == "fees" })
        #expect(fees["fields"]?[0]?["argument_list"] == [
            ["name": "step", "kind": "decimal", "text": "2.50"],
            ["name": "most", "kind": "integer", "text": "7"],
        ])
        #expect(fees["fields"]?[1]?["argument_list"] == [])
    }

    @Test func secureTypesAreFlaggedAndCarryNoExampleValues() throws {
        let (result, doc) = try Self.export()
        let cvv = try #require(Self.type("cvv", in: doc))
        #expect(cvv["secure"]?.boolValue == true)
        #expect(cvv["examples"]?.arrayValue == [])
        // cvv(digits: 4) takes the Amex code, so the length is a parameter, not a mask.
        #expect(cvv["mask"]?.isNull == true)
        let length = try #require(cvv["checks"]?.arrayValue?.first { $0["kind"]?.stringValue == "length" })
        #expect(length["arguments"]?["range"]?["lower"]?["parameter"]?.stringValue == "digits")
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(!text.contains("\" 9 9 9\""))
        let form = try #require(doc["forms"]?[0])
        let cvvField = form["fields"]?.arrayValue?.first { $0["key"]?.stringValue == "cvv" }
        #expect(cvvField?["secure"]?.boolValue == true)
        let cardField = form["fields"]?.arrayValue?.first { $0["key"]?.stringValue == "card" }
        #expect(cardField?["secure"]?.boolValue == false)
        #expect(cardField?["timing"]?.isNull == true)
        // A form field repeats its type's autofill name, for a page's `autocomplete` attribute.
        #expect(cardField?["autocomplete"]?.stringValue == "cc-number")
        #expect(cvvField?["autocomplete"]?.stringValue == "cc-csc")
    }

    @Test func formsCarryFieldsArgumentsAndCrossFieldRules() throws {
        let (_, doc) = try Self.export()
        let forms = doc["forms"]?.arrayValue ?? []
        #expect(forms.count == 1)
        let form = forms[0]
        #expect(form["name"]?.stringValue == "signup")
        #expect(form["label"]?.stringValue == "Sign up")
        #expect(form["source"]?.stringValue == "database")
        #expect(form["version"]?.stringValue?.count == 64)
        let fields = form["fields"]?.arrayValue ?? []
        #expect(fields.compactMap { $0["key"]?.stringValue }
                == ["name", "email", "email-again", "age", "card", "expires", "cvv"])
        let age = fields[3]
        #expect(age["type"]?.stringValue == "age")
        #expect(age["arguments"] == ["min": .number("18")])
        #expect(age["type_reference"]?.stringValue == "age(min: 18)")
        #expect(age["required"]?.boolValue == true)
        #expect(fields[2]["label"]?.stringValue == "Confirm email")
        #expect(fields[4]["required"]?.boolValue == false)
        let rules = form["rules"]?.arrayValue ?? []
        #expect(rules.count == 2)
        #expect(rules[0]["kind"]?.stringValue == "same")
        #expect(rules[0]["fields"]?.arrayValue == ["email", "email-again"])
        #expect(rules[0]["when"]?.isNull == true)
        #expect(rules[0]["message"]?.stringValue == "The two emails differ")
        #expect(rules[1]["kind"]?.stringValue == "require")
        #expect(rules[1]["rule"]?.stringValue == "require")
        #expect(rules[1]["fields"]?.arrayValue == ["expires", "cvv"])
        #expect(rules[1]["when"]?.stringValue == "card")
        #expect(rules[1]["severity"]?.stringValue == "warning")
    }

    @Test func brokenDefinitionsAreListedAsUnavailableNotExported() throws {
        let broken = PluginFile(path: "mine/broken.field", bytes: Array("field broken\nrnage 1...2\n".utf8),
                                source: .database)
        let badForm = PluginFile(path: "mine/bad.form", bytes: Array("form bad\nfield x no-such-type\n".utf8),
                                 source: .database)
        let (result, doc) = try Self.export(extra: [broken, badForm])
        #expect(Self.type("broken", in: doc) == nil)
        #expect(result.unavailable.map(\.name).sorted() == ["bad", "broken"])
        let entry = try #require(doc["unavailable"]?.arrayValue?.first { $0["name"]?.stringValue == "broken" })
        #expect(entry["kind"]?.stringValue == "type")
        #expect(entry["file"]?.stringValue == "mine/broken.field")
        #expect(entry["problems"]?[0]?.stringValue?.hasPrefix("mine/broken.field:2:1:") == true)
        #expect(doc["forms"]?.arrayValue?.map { $0["name"]?.stringValue } == ["signup"])
    }

    @Test func numbersThatAreNotJSONNumbersBecomeStrings() {
        #expect(RegistryExport.number("-12") == .number("-12"))
        #expect(RegistryExport.number("0.5") == .number("0.5"))
        #expect(RegistryExport.number("007") == .string("007"))
        #expect(RegistryExport.number(".5") == .string(".5"))
    }

    @Test func dateBoundsAreSpelledAsInTheRuleLanguage() {
        #expect(RegistryExport.dateBound(.absolute(year: 999, month: 1, day: 31)) == "0999-01-31")
        #expect(RegistryExport.dateBound(.today(offset: 0, unit: .days)) == "today")
        #expect(RegistryExport.dateBound(.today(offset: -30, unit: .days)) == "today-30d")
        #expect(RegistryExport.dateBound(.today(offset: 6, unit: .months)) == "today+6m")
    }

    /// The fenced blocks of docs/export.md whose info string is `info`, in order.
    static func docBlocks(_ info: String) throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/export.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + info { current = []; continue }
            if current != nil, line == "```" { blocks.append(current!.joined(separator: "\n") + "\n"); current = nil; continue }
            current?.append(line)
        }
        return blocks
    }

    /// The complete example in docs/export.md is what `export` really prints, so the page
    /// cannot drift from the code (a changed built-in type shows here first).
    @Test func theDocumentedExampleIsTheRealExport() throws {
        let formSource = try #require(try Self.docBlocks("form").first)
        let documentedType = try JSONValue(parsing: try #require(try Self.docBlocks("json type").first))
        let documentedForm = try JSONValue(parsing: try #require(try Self.docBlocks("json form").first))
        let registry = try Registry.load(folders: [], extraFiles: [
            PluginFile(path: "forms/signup.form", bytes: Array(formSource.utf8),
                       source: .folder(PluginFolder(path: "forms", origin: .option))),
        ])
        let doc = RegistryExport.make(registry, today: Self.today).document
        let name = try #require(documentedType["name"]?.stringValue)
        #expect(Self.type(name, in: doc) == documentedType)
        #expect(doc["forms"]?[0] == documentedForm)
    }
}
