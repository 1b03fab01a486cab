import Foundation
import Testing

/// The wrong file given to `types lint`, `types add` or `forms add` — a CSV or JSON Lines
/// file of records, a binary, a form where a type belongs — is one error that says what the
/// file looks like, not a diagnostic per line; and a file with very many problems shows the
/// first 20 and counts the rest, as clang does (the JSON document keeps them all).
@Suite struct WrongFilesTests {
    /// The error lines of `result` that are diagnostics (`file:line:column: error: …`).
    static func diagnostics(_ result: ProcessResult) -> [String] {
        result.errorLines.filter { $0.contains(#/^\S+:\d+:\d+: (error|warning): /#) }
    }

    @Test func aCSVFileIsSaidToBeCSVDataWhateverCommandIsGivenIt() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        try sandbox.write("signups.csv", "name,email,age\nAda,ada@example.com,36\nBob,bob@example,17\n")
        for command in [["forms", "add"], ["types", "add"], ["types", "lint"]] {
            let result = try sandbox.run(command + ["signups.csv"])
            #expect(result.status == 2, "\(result)")
            #expect(Self.diagnostics(result) == [
                "signups.csv:1:1: error: this looks like CSV data (a header row 'name,email,age'), not a .field or .form "
                    + "file (those start with 'field NAME' or 'form NAME')",
            ], "\(command): \(result)")
            #expect(!result.stderr.contains("is a field type") && !result.stderr.contains("declares the field type"),
                    "\(command): \(result)")
            if command[1] == "add" {
                #expect(result.stderr.contains("formulary import --form NAME signups.csv"), "\(result)")
            }
        }
    }

    @Test func aJSONLinesFileIsSaidToBeJSON() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        try sandbox.write("more.jsonl", "{\"name\":\"Ada\"}\n{\"name\":\"Bob\"}\n")
        let result = try sandbox.run("types", "add", "more.jsonl")
        #expect(result.status == 2, "\(result)")
        #expect(Self.diagnostics(result).count == 1, "\(result)")
        #expect(result.stderr.contains("more.jsonl:1:1: error: this looks like JSON (it starts with '{')"), "\(result)")
    }

    /// `/bin/ls` was 1,226 errors (778 KB); an SQLite database is named as one.
    @Test func aBinaryFileIsOneErrorNamingItsKind() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        let ls = try sandbox.run("types", "lint", "/bin/ls")
        #expect(ls.status == 2, "\(ls)")
        #expect(Self.diagnostics(ls).count == 1, "\(ls)")
        #expect(ls.stderr.contains("/bin/ls:1:1: error: this is an executable (ELF), not a .field or .form file: it holds NUL bytes"),
                "\(ls)")
        #expect(ls.stderr.utf8.count < 300, "\(ls)")
        let database = try sandbox.run("types", "add", "formulary.db")
        #expect(database.stderr.contains("formulary.db:1:1: error: this is an SQLite database"), "\(database)")
        #expect(!database.stderr.contains("formulary import"), "binary data is no records to import: \(database)")
    }

    @Test func aTypeGivenToFormsAddIsSaidToBeOne() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.write("signup.form", Fixtures.signupForm)
        let type = try sandbox.run("forms", "add", "visa.field")
        #expect(type.status == 2, "\(type)")
        #expect(type.stderr.contains("visa.field declares the field type 'visa', not a form: add it with 'formulary types add visa.field'"),
                "\(type)")
        let form = try sandbox.run("types", "add", "signup.form")
        #expect(form.stderr.contains("signup.form declares the form 'signup', not a field type: add it with 'formulary forms add signup.form'"),
                "\(form)")
    }

    /// Rule script that only lacks its header is rule script, comma or not.
    @Test func ruleScriptWithoutItsHeaderIsNotTakenForCSV() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/headless.field", "pattern /a,b/\nlength 1...3\n")
        let result = try sandbox.run("types", "lint", "p/headless.field")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("expected 'field NAME' or 'form NAME' as the first directive"), "\(result)")
        #expect(!result.stderr.contains("CSV"), "\(result)")
    }

    @Test func aFileWithManyErrorsShowsTwentyAndCountsTheRest() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/many.field", "field many\n" + (1...1226).map { "labl \"x\($0)\"\n" }.joined())
        try sandbox.write("p/few.field", "field few\nlabl \"x\"\n")
        let result = try sandbox.run("types", "lint", "p/many.field", "p/few.field")
        #expect(result.status == 2, "\(result)")
        let shown = Self.diagnostics(result)
        #expect(shown.filter { $0.hasPrefix("p/many.field:") }.count == 20, "\(shown.count) shown")
        #expect(shown.filter { $0.hasPrefix("p/few.field:") }.count == 1, "another file's diagnostics are its own")
        #expect(result.errorLines.contains("… and 1,206 more errors in p/many.field"), "\(result.errorLines.suffix(3))")

        let json = try sandbox.run("--format", "json", "types", "lint", "p/many.field")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        #expect((files.first?["diagnostics"] as? [Any])?.count == 1226, "JSON lists every diagnostic")

        try sandbox.initDatabase()
        let add = try sandbox.run("types", "add", "p/many.field")
        #expect(Self.diagnostics(add).count == 20, "\(add.errorLines.count) lines")
        #expect(add.errorLines.contains("… and 1,206 more errors in p/many.field"), "\(add.errorLines.suffix(3))")
    }
}
