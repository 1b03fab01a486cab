import Foundation
import Testing
@testable import FormularyRules

struct FieldCatalogTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    static let visa = """
        field visa extends credit-card
        label "Visa card"
        pattern /4.*/ as visa-prefix message "Only Visa cards, which start with 4"
        """

    /// The embedded copy (what `FieldCatalog.builtin` and the CLI's registry read) must equal
    /// plugins/*.field byte for byte: a type edited or added without `make embed` fails here.
    @Test func embeddedBuiltinsEqualThePluginsFolder() throws {
        let names = try Self.expectEmbedded(BuiltinPluginFiles.files, ending: ".field")
        #expect(!names.isEmpty)
    }

    /// Checks that `files` are plugins/*`suffix` byte for byte; returns the names found there.
    static func expectEmbedded(_ files: [(name: String, text: String)], ending suffix: String,
                               sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("plugins")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(suffix) }.sorted()
        #expect(files.map(\.name) == names, "run make embed", sourceLocation: sourceLocation)
        for file in files {
            let onDisk = try Data(contentsOf: folder.appendingPathComponent(file.name))
            #expect(Array(onDisk) == Array(file.text.utf8), "\(file.name) differs from its embedded copy: run make embed",
                    sourceLocation: sourceLocation)
        }
        return names
    }

    @Test func builtinCatalogHoldsEveryEmbeddedTypeSorted() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        #expect(catalog.typeNames == BuiltinPluginFiles.files.map { String($0.name.dropLast(".field".count)) }.sorted())
        #expect(catalog.typeNames == catalog.typeNames.sorted())
        #expect(catalog.contains("credit-card") && !catalog.contains("visa"))
        #expect(catalog.today == Self.today)
        #expect(try FieldCatalog.builtin().typeNames == catalog.typeNames)
    }

    @Test func typesJudgeAndAreCompiledOncePerReference() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let card = try catalog.fieldType("credit-card")
        #expect(card.isValid("4111 1111 1111 1111"))
        #expect(!card.isValid("4111 1111 1111 1112"))
        #expect(card.format("4111111111111111") == "4111 1111 1111 1111")
        #expect(try catalog.fieldType("credit-card") === card)

        let adult = try catalog.fieldType("age(min: 18, max: 120)")
        #expect(adult.isValid("18") && !adult.isValid("17") && !adult.isValid("121"))
        #expect(adult.validate("17").violations.map(\.rule) == ["range"])
        // The same reference spelled differently is the same type; other arguments are not.
        #expect(try catalog.fieldType("age(min:18,max:120)") === adult)
        #expect(try catalog.fieldType("age") !== adult)
        #expect(try catalog.fieldType("age").isValid("17"))
        // A copy shares what was compiled.
        let copy = catalog
        #expect(try copy.fieldType("credit-card") === card)
    }

    @Test func badReferencesThrowTheDiagnosticsTheToolPrints() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let unknown = try #require(throws: FormularyError.self) { try catalog.fieldType("credt-card") }
        #expect(unknown.ids == ["unknown-type"])
        #expect(unknown.description == """
            <type reference>:1:1: error: unknown type 'credt-card'; did you mean 'credit-card'?
            credt-card
            ^~~~~~~~~~
            """)

        let parameter = try #require(throws: FormularyError.self) { try catalog.fieldType("age(mn: 18)") }
        #expect(parameter.ids == ["unknown-parameter"])
        #expect(parameter.description.hasPrefix("<type reference>:1:5: error: type 'age' has no parameter 'mn'"))

        let kind = try #require(throws: FormularyError.self) { try catalog.fieldType(#"age(min: "x")"#) }
        #expect(kind.ids == ["argument-kind"])

        let syntax = try #require(throws: FormularyError.self) { try catalog.fieldType("age(min 18)") }
        #expect(syntax.diagnostics.count == 1 && syntax.diagnostics[0].severity == .error)
        #expect(syntax.description.hasPrefix("<type reference>:1:"))

        let empty = try #require(throws: FormularyError.self) { try catalog.fieldType("") }
        #expect(!empty.diagnostics.isEmpty)
    }

    @Test func addingReturnsANewCatalogAndLeavesTheOldOne() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let more = try catalog.adding(source: Self.visa, file: "visa.field")
        #expect(more.typeNames.contains("visa") && !catalog.typeNames.contains("visa"))
        #expect(more.typeNames.count == catalog.typeNames.count + 1)
        let visa = try more.fieldType("visa")
        #expect(visa.isValid("4111 1111 1111 1111"))
        #expect(visa.validate("5555 5555 5555 4444").violations.map(\.rule) == ["visa-prefix"])
        #expect(throws: FormularyError.self) { try catalog.fieldType("visa") }

        // Replacing a type: types that extend it build on the new one.
        let strict = try more.adding(source: """
            field credit-card
            normalize strip-spaces
            pattern /^[0-9]{16}$/ message "16 digits"
            """, file: "strict.field")
        #expect(try strict.fieldType("visa").validate("4111").violations.map(\.rule).contains("pattern"))
        #expect(try more.fieldType("credit-card").isValid("4111 1111 1111 1111"))
    }

    @Test func addingRefusesBrokenFilesWithTheirLocations() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let typo = try #require(throws: FormularyError.self) {
            try catalog.adding(source: "field pin\nrnage 1...9\n", file: "pin.field")
        }
        #expect(typo.ids == ["unknown-directive"])
        #expect(typo.description.hasPrefix("pin.field:2:1: error: unknown directive 'rnage'; did you mean 'range'?\nrnage 1...9\n^~~~~"))

        let base = try #require(throws: FormularyError.self) {
            try catalog.adding(source: "field gold extends platinum\n", file: "gold.field")
        }
        #expect(base.ids == ["unknown-base"])
        #expect(base.diagnostics[0].location.file == "gold.field" && base.diagnostics[0].sourceLine == "field gold extends platinum")

        let form = try #require(throws: FormularyError.self) {
            try catalog.adding(source: "form signup\nfield age age\n", file: "signup.form")
        }
        #expect(form.description.contains("declares form 'signup', not a field type"))
    }

    @Test func aFolderIsAddedWholeOrNotAtAll() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.visa.write(to: folder.appendingPathComponent("visa.field"), atomically: true, encoding: .utf8)
        try "field pin\nlength 4\n".write(to: folder.appendingPathComponent("pin.field"), atomically: true, encoding: .utf8)
        try "not a type".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let more = try catalog.adding(folder: folder.path)
        #expect(more.typeNames == (catalog.typeNames + ["pin", "visa"]).sorted())
        #expect(try more.fieldType("pin").isValid("1234"))

        try "field pin2\nrnage 1...9\n".write(to: folder.appendingPathComponent("pin2.field"), atomically: true, encoding: .utf8)
        try "field visa\nlength 3\n".write(to: folder.appendingPathComponent("visa2.field"), atomically: true, encoding: .utf8)
        let broken = try #require(throws: FormularyError.self) { try catalog.adding(folder: folder.path) }
        #expect(broken.ids == ["unknown-directive", "duplicate-declaration"])
        #expect(broken.diagnostics[0].location.file == folder.path + "/pin2.field")
        #expect(broken.diagnostics[1].message.contains("also declared in \(folder.path)/visa.field"))

        let missing = try #require(throws: FormularyError.self) { try catalog.adding(folder: folder.path + "/nope") }
        #expect(missing.ids == ["unreadable-file"])
        #expect(missing.description.contains("nope: cannot open the folder"))
    }

    static let signup = """
        form signup
        field name          name            required
        field email         email           required
        field email-again   email           required
        field phone         phone
        field age           age(min: 18, max: 120)    required
        same email email-again              message "The two email addresses differ"
        require phone when age              warning   as phone-for-age
        """

    static let good = ["name": "Ada Lovelace", "email": "ada@example.com", "email-again": "ada@example.com",
                       "phone": "(555) 123-4567", "age": "36"]

    @Test func aFormJudgesFieldsRequiredAndCrossFieldRules() throws {
        let signup = try FieldCatalog.builtin(today: Self.today).form(source: Self.signup, file: "signup.form")
        #expect(signup.name == "signup")
        #expect(signup.fieldKeys == ["name", "email", "email-again", "phone", "age"])
        #expect(try signup.fieldType("age").isValid("17") == false)
        // A key the form lacks throws, as an unknown type does from the catalog.
        do {
            _ = try signup.fieldType("emial")
            Issue.record("an undeclared key gave a type")
        } catch {
            #expect(error.ids == ["undeclared-field"])
            #expect(error.description.hasPrefix("<field key>:1:1: error: form 'signup' has no field 'emial'"), "\(error)")
            #expect(error.description.contains("email"), "a near key is suggested: \(error)")
        }

        let ok = signup.judge(Self.good)
        #expect(ok.verdict == .valid)
        #expect(ok.violations.isEmpty && ok.formViolations.isEmpty && ok.unknownFields.isEmpty)
        #expect(Set(ok.fields.keys) == Set(signup.fieldKeys))
        #expect(ok.fields["phone"]?.formatted == "(555) 123-4567")

        var values = Self.good
        values["age"] = nil
        values["email-again"] = "ada@example.org"
        values["phone"] = "  "
        let bad = signup.judge(values)
        #expect(bad.verdict == .invalid)
        let age = try #require(bad.fields["age"])
        #expect(age.isAbsent && age.verdict == .invalid)
        #expect(age.violations == [Violation(rule: "required", severity: .error, message: "'age' is required")])
        #expect(bad.fields["phone"]?.isAbsent == true && bad.fields["phone"]?.verdict == .valid)
        #expect(bad.formViolations == [FormViolation(field: "email-again", type: nil, rule: "same", severity: .error,
                                                     message: "The two email addresses differ")])
        #expect(bad.violations.map(\.rule) == ["required", "same"])

        var warned = Self.good
        warned["phone"] = nil
        warned["nickname"] = "ada"
        warned["blank-extra"] = " "
        let warnings = signup.judge(warned)
        #expect(warnings.verdict == .warnings)
        #expect(warnings.unknownFields == ["blank-extra", "nickname"])
        #expect(warnings.formViolations.map(\.rule) == ["phone-for-age", "unknown-field"])
        #expect(warnings.formViolations.last?.message == "'nickname' is not a field of form 'signup'")

        var typed = Self.good
        typed["age"] = "thirty"
        let invalid = signup.judge(typed)
        #expect(invalid.fields["age"]?.verdict == .invalid)
        #expect(invalid.fields["age"]?.violations.map(\.rule) == ["integer", "range"])
        #expect(invalid.violations.allSatisfy { $0.field == "age" && $0.type == "age" })

        // Empty values: every one absent, the required ones reported in form order.
        let empty = signup.judge([:])
        #expect(empty.violations.map(\.field) == ["name", "email", "email-again", "age"])
    }

    @Test func theLiveStageWaitsForRequiredAndCrossFieldRules() throws {
        let signup = try FieldCatalog.builtin(today: Self.today).form(source: Self.signup, file: "signup.form")
        let typing = signup.judge(["name": "Ada", "email": "ada@example.com", "email-again": "ada@ex", "age": "3"],
                                  stage: .live)
        // Not `valid`: two required fields are still being typed.
        #expect(typing.verdict == .incomplete)
        #expect(typing.fields["email-again"]?.verdict == .incomplete)
        #expect(typing.fields["age"]?.verdict == .incomplete)
        #expect(typing.formViolations.isEmpty)
        let done = signup.judge(["name": "Ada", "email": "ada@example.com", "email-again": "ada@example.com",
                                 "age": "36"], stage: .live)
        #expect(done.verdict == .valid)
        var missing = ["name": "Ada", "email": "ada@example.com", "email-again": "ada@example.com"]
        #expect(signup.judge(missing, stage: .live).verdict == .incomplete)   // age is required
        missing["age"] = "36"
        missing["phone"] = "(555) 12"                                        // not required, but not done
        #expect(signup.judge(missing, stage: .live).verdict == .incomplete)
        let wrong = signup.judge(["age": "3x", "extra": "1"], stage: .live)
        #expect(wrong.verdict == .invalid)
        #expect(wrong.fields["age"]?.verdict == .invalid)
        #expect(wrong.unknownFields == ["extra"] && wrong.formViolations.map(\.rule) == ["unknown-field"])
    }

    @Test func formsWithProblemsThrowWhatFormsLintReports() throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let unknown = try #require(throws: FormularyError.self) {
            try catalog.form(source: "form f\nfield card  credt-card\n", file: "f.form")
        }
        #expect(unknown.ids == ["unknown-type"])
        #expect(unknown.description.hasPrefix("f.form:2:13: error: unknown type 'credt-card'; did you mean 'credit-card'?"))

        let rule = try #require(throws: FormularyError.self) {
            try catalog.form(source: "form f\nfield a age\nsame a b\n", file: "f.form")
        }
        #expect(rule.ids == ["undeclared-field"])

        let argument = try #require(throws: FormularyError.self) {
            try catalog.form(source: "form f\nfield a age(mn: 1)\n", file: "f.form")
        }
        #expect(argument.ids == ["unknown-parameter"])

        let type = try #require(throws: FormularyError.self) {
            try catalog.form(source: "field pin\nlength 4\n", file: "pin.field")
        }
        #expect(type.description.contains("declares field type 'pin', not a form"))

        // A form may use a type the app added.
        let more = try catalog.adding(source: Self.visa, file: "visa.field")
        let pay = try more.form(source: "form pay\nfield card visa required\n", file: "pay.form")
        #expect(pay.judge(["card": "5555 5555 5555 4444"]).fields["card"]?.violations.map(\.rule) == ["visa-prefix"])
    }

    @Test func aCatalogIsSharedAcrossTasks() async throws {
        let catalog = try FieldCatalog.builtin(today: Self.today)
        let signup = try catalog.form(source: Self.signup, file: "signup.form")
        let types = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for i in 0..<8 {
                group.addTask {
                    let type = try catalog.fieldType("age(min: 18, max: \(120 + i % 2))")
                    #expect(signup.judge(Self.good).verdict == .valid)
                    return ObjectIdentifier(type)
                }
            }
            var seen: Set<ObjectIdentifier> = []
            for try await id in group { seen.insert(id) }
            return seen
        }
        #expect(types.count == 2)
    }

    /// What an app holds in a `Sendable` context compiles as such (a compile-time check).
    @Test func theLibraryTypesAreSendable() {
        func sendable<T: Sendable>(_: T.Type) {}
        sendable(FieldCatalog.self)
        sendable(FormValidator.self)
        sendable(FormResult.self)
        sendable(FormViolation.self)
        sendable(EntryVerdict.self)
        sendable(FormularyError.self)
        sendable(CompiledFieldType.self)
        sendable(FieldResult.self)
        sendable(Stage.self)
        sendable(Diagnostic.self)
        sendable(FormDefinition.self)
        sendable(SelfTests.self)
        sendable(PluginSource.self)
    }
}
