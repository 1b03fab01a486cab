import Foundation
import Testing

/// `forms add` and types that only a plugin folder holds: a form stored in the database
/// must work without the folders of the moment. Without --add-types it is refused, naming
/// the types and their files; with it, they are stored with the form, in one transaction.
@Suite struct FormsAddCommandTests {
    /// A database, a folder `types/` with `visa` (extends the built-in credit-card), `gold`
    /// (extends visa) and `email` (overrides the built-in), and a form using gold and email.
    static func sandbox(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("types/visa.field", Fixtures.visaType)
        try sandbox.write("types/gold.field", "field gold extends visa\nlabel \"Gold card\"\naccept \"4111 1111 1111 1111\"\n")
        try sandbox.write("types/email.field", "field email extends phrase\nlabel \"Any email\"\n")
        try sandbox.write("orders.form", "form orders\nfield card gold required\nfield contact email\nfield who name\n")
        return sandbox
    }

    @Test(arguments: TestBackend.all) func aFormUsingFolderTypesIsRefusedWithoutAddTypes(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        let before = try sandbox.databaseFingerprint()
        let result = try sandbox.run("--plugins", "types", "forms", "add", "orders.form")
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines == [
            "formulary: error: nothing was stored: the form uses types that only a plugin folder holds, so a later command "
                + "without that folder could not use it the same way. Store them first with 'formulary types add "
                + "types/visa.field types/gold.field types/email.field', or pass --add-types to store them with the form",
            "  visa   types/visa.field   (from --plugins; used by form orders)",
            "  gold   types/gold.field   (from --plugins; used by form orders)",
            "  email  types/email.field  (from --plugins, overriding the built-in one; used by form orders)",
        ], "\(result)")
        // From FORMULARY_PATH alike.
        let path = try sandbox.run(["forms", "add", "orders.form"], environment: ["FORMULARY_PATH": "types"])
        #expect(path.status == 2 && path.stderr.contains("(from FORMULARY_PATH; used by form orders)"), "\(path)")
        #expect(try sandbox.databaseFingerprint() == before)
    }

    @Test(arguments: TestBackend.all) func addTypesStoresThemWithTheFormAndAuditsEach(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        let result = try sandbox.run("--plugins", "types", "forms", "add", "orders.form", "--add-types")
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.map { $0.replacing(/[0-9a-f]{12}/, with: "H") } == [
            "visa: added new version H", "gold: added new version H", "email: added new version H",
            "orders: added new version H",
        ], "\(result)")
        let audit = try sandbox.auditRecords().map { "\($0["action"] ?? "") \($0["subject"] ?? "")" }
        #expect(audit == ["types.add visa", "types.add gold", "types.add email", "forms.add orders"])

        // Without the folder, the form works with the stored types.
        try sandbox.write("orders.csv", "card,contact,who\n5500 0000 0000 0004,not an address,Ada\n")
        try sandbox.mustRun("import", "--form", "orders", "orders.csv")
        let validate = try sandbox.run("--format", "json", "validate")
        #expect(validate.status == 1, "\(validate)")
        let report = try sandbox.run("--format", "csv", "report")
        #expect(report.stdout.contains(",card,gold,") && report.stdout.contains("visa-prefix"), "\(report)")
        #expect(!report.stdout.contains(",contact,"), "the stored email type (any phrase) judged the contact: \(report)")
        #expect(try sandbox.run("types", "list").outputLines.contains { $0.hasPrefix("gold ") && $0.contains(" database ") })

        // Again: the stored types are the folder's, so the form needs nothing more.
        let again = try sandbox.run("--plugins", "types", "forms", "add", "orders.form")
        #expect(again.status == 0 && again.stdout.hasPrefix("orders: unchanged;"), "\(again)")
    }

    @Test(arguments: TestBackend.all) func addTypesStoresNothingWhenAFolderTypeFailsItsChecks(_ backend: TestBackend) throws {
        let sandbox = try Self.sandbox(backend)
        try sandbox.write("types/gold.field", "field gold extends visa\naccept \"5500 0000 0000 0004\"\n")
        let before = try sandbox.databaseFingerprint()
        let result = try sandbox.run("--plugins", "types", "forms", "add", "orders.form", "--add-types")
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first == "formulary: error: nothing was stored: a type the form uses (--add-types) has problems", "\(result)")
        #expect(result.stderr.contains("types/gold.field:2: self-test failed"), "\(result)")
        #expect(try sandbox.databaseFingerprint() == before)
    }
}
