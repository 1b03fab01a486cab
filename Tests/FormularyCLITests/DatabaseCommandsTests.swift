import Foundation
import Testing

/// `init`, `migrate`, `types add/history/retire` and `forms add/list/show`, end to end on
/// a database in a temporary folder.
@Suite struct DatabaseCommandsTests {
    @Test(arguments: TestBackend.all) func initTwiceAndMigrateStatus(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        // Without a database, commands that need one say how to make it (environment: 3).
        let missing = try sandbox.run("entries", "list")
        #expect(missing.status == 3, "\(missing)")
        switch backend {
        case .sqlite:
            #expect(missing.errorLines.first?.hasPrefix("formulary: error: no database at") == true, "\(missing)")
            #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath), "a read command created the database")
        case .postgres:
            // The server database exists (createdb made it) but has no Formulary tables yet.
            #expect(missing.errorLines.first == "formulary: error: \(sandbox.databasePath) is not a Formulary database yet "
                    + "(it has no Formulary tables); run 'formulary init' to make it one, or pass --db with the URL of your database",
                    "\(missing)")
            #expect(try sandbox.query("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == [["0"]],
                    "a read command created tables")
        }
        #expect(missing.stderr.contains("formulary init"), "\(missing)")

        let first = try sandbox.run("init")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("Created "), "\(first)")
        #expect(first.stdout.contains("0001_"), "\(first)")
        let second = try sandbox.run("init")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("up to date"), "\(second)")

        let status = try sandbox.run("migrate", "--status")
        #expect(status.status == 0, "\(status)")
        #expect(status.outputLines.first?.split(separator: " ", omittingEmptySubsequences: true) == ["ID", "NAME", "STATUS", "APPLIED"])
        let rows = status.outputLines.dropFirst()
        #expect(rows.count >= 2, "\(status)")
        #expect(rows.allSatisfy { $0.contains(" applied ") }, "\(status)")
        let json = try sandbox.run("--format", "json", "migrate", "--status")
        let migrations = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(migrations.count == rows.count)
        #expect(migrations.allSatisfy { $0["status"] as? String == "applied" && ($0["sha256"] as? String)?.count == 64 })

        let migrate = try sandbox.run("migrate")
        #expect(migrate.status == 0 && migrate.stdout.contains("up to date"), "\(migrate)")
        // Creating and migrating a database is not a change to its data: no audit record.
        #expect(try sandbox.auditRecords().isEmpty)
    }

    @Test(arguments: TestBackend.all) func aDatabaseWithAnUnknownMigrationIsRefused(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        let columnQuery = backend == .sqlite ? "SELECT name FROM pragma_table_info('schema_migrations')"
            : "SELECT column_name::text FROM information_schema.columns WHERE table_name = 'schema_migrations' ORDER BY ordinal_position"
        let columns = try sandbox.query(columnQuery).compactMap { $0[0] }
        try #require(columns.contains("id"), "schema_migrations has \(columns)")
        let values = columns.map { c -> String in
            c == "id" ? "9999" : c == "name" ? "'9999_from_the_future.sql'" : c.contains("sha") ? "'" + String(repeating: "0", count: 64) + "'" : "'x'"
        }
        _ = try sandbox.query("INSERT INTO schema_migrations (\(columns.joined(separator: ","))) VALUES (\(values.joined(separator: ",")))")
        let result = try sandbox.run("init")
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("9999"), "the message names the migration: \(result)")
        let list = try sandbox.run("entries", "list")
        #expect(list.status == 3, "\(list)")
    }

    @Test(arguments: TestBackend.all) func typesAddHistoryAndRetire(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("types/visa.field", Fixtures.visaType)
        try sandbox.write("types/cvv.field", """
            field cvv
            label "Four digit code"
            secure
            normalize strip-spaces
            mask "0000"
            accept "1234"
            reject "123" mask

            """)

        let added = try sandbox.run("types", "add", "types/visa.field")
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.wholeMatch(of: /visa: added new version [0-9a-f]{12}\n/) != nil, "\(added)")
        let again = try sandbox.run("types", "add", "types/visa.field")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("visa: unchanged"), "\(again)")
        // The database type is in the registry, for every command.
        #expect(try sandbox.run("check", "visa", "5500000000000004").stdout.contains("visa-prefix"))
        let list = try sandbox.run("types", "list")
        #expect(list.outputLines.contains { $0.hasPrefix("visa ") && $0.contains("database") && $0.contains("Visa") }, "\(list)")

        // A file whose self-test fails stores nothing, not even the good file beside it.
        try sandbox.write("types/three.field", Fixtures.failingSelfTest)
        try sandbox.write("types/zip4.field", "field zip4\nmask \"0000\"\naccept \"1234\"\n")
        let auditBefore = try sandbox.auditRecords().count
        let failing = try sandbox.run("types", "add", "types/zip4.field", "types/three.field")
        #expect(failing.status == 2, "\(failing)")
        #expect(failing.errorLines.first?.hasPrefix("formulary: error: nothing was stored") == true, "\(failing)")
        #expect(failing.stderr.contains("types/three.field:4:"), "\(failing)")
        let afterFailure = try sandbox.run("types", "list").stdout
        #expect(!afterFailure.contains("three") && !afterFailure.contains("zip4"), "\(afterFailure)")
        #expect(try sandbox.auditRecords().count == auditBefore)
        let missingFile = try sandbox.run("types", "add", "no-such.field")
        #expect(missingFile.status == 2, "\(missingFile)")
        #expect(missingFile.stderr.contains("no-such.field"), "\(missingFile)")

        // A database type overrides the built-in; retiring it brings the built-in back. This
        // cvv refuses the built-in's three-digit codes, which the default compatibility policy
        // (backward) forbids without --allow-breaking.
        let refused = try sandbox.run("types", "add", "types/cvv.field")
        #expect(refused.status == 2 && refused.stderr.contains("breaks its compatibility policy"), "\(refused)")
        #expect(try sandbox.run("types", "add", "--allow-breaking", "--reason", "four-digit codes only",
                                "types/cvv.field").status == 0)
        let overridden = try sandbox.run("types", "list")
        let cvvRow = try #require(overridden.outputLines.first { $0.hasPrefix("cvv ") })
        #expect(cvvRow.contains("database") && cvvRow.contains("Four digit code") && cvvRow.hasSuffix("built-in"), "\(cvvRow)")
        #expect(try sandbox.run("check", "cvv", "1234").status == 0)

        let retire = try sandbox.run("types", "retire", "cvv")
        #expect(retire.status == 0, "\(retire)")
        #expect(retire.stdout.hasPrefix("cvv: retired"), "\(retire)")
        let restored = try sandbox.run("types", "list")
        let builtIn = try #require(restored.outputLines.first { $0.hasPrefix("cvv ") })
        #expect(builtIn.contains("built-in") && builtIn.hasSuffix("Security Code"), "\(builtIn)")
        #expect(try sandbox.run("check", "cvv", "1234").status == 1, "the built-in cvv has 3 digits")

        let history = try sandbox.run("types", "history", "cvv")
        #expect(history.status == 0, "\(history)")
        let rows = history.outputLines.dropFirst()
        #expect(rows.count == 2, "\(history)")
        #expect(rows.first?.contains(" tester ") == true && rows.first?.contains(" add ") == true, "\(history)")
        #expect(rows.last?.contains(" retire ") == true, "\(history)")

        let unknown = try sandbox.run("types", "retire", "no-such")
        #expect(unknown.status == 2, "\(unknown)")
        let noHistory = try sandbox.run("types", "history", "no-such")
        #expect(noHistory.status == 2, "\(noHistory)")

        let actions = try sandbox.auditRecords().map { "\($0["action"] as? String ?? "?") \($0["subject"] as? String ?? "?")" }
        #expect(actions == ["types.add visa", "types.add cvv", "types.retire cvv"], "\(actions)")
    }

    @Test(arguments: TestBackend.all) func formsAddListAndShow(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("bad.form", """
            form bad
            field name  name
            field x     no-such-type
            field a     age(mn: 3)

            """)
        let refused = try sandbox.run("forms", "add", "bad.form")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.errorLines.first?.hasPrefix("formulary: error: nothing was stored") == true, "\(refused)")
        #expect(refused.errorLines.contains { $0.hasPrefix("bad.form:3:13: error: unknown type 'no-such-type'") }, "\(refused)")
        #expect(refused.errorLines.contains { $0.hasPrefix("bad.form:4:17: error:") && $0.contains("did you mean 'min'") }, "\(refused)")
        #expect(refused.errorLines.contains("            ^~~~~~~~~~~~"), "caret under the type: \(refused)")

        try sandbox.write("signup.form", Fixtures.signupForm)
        let added = try sandbox.run("forms", "add", "signup.form")
        #expect(added.status == 0, "\(added)")
        #expect(added.stdout.hasPrefix("signup: added new version "), "\(added)")
        #expect(try sandbox.run("forms", "add", "signup.form").stdout.contains("unchanged"))
        // A field type is not a form.
        try sandbox.write("visa.field", Fixtures.visaType)
        let wrongKind = try sandbox.run("forms", "add", "visa.field")
        #expect(wrongKind.status == 2 && wrongKind.stderr.contains("types add"), "\(wrongKind)")

        let list = try sandbox.run("forms", "list")
        #expect(list.status == 0, "\(list)")
        #expect(list.outputLines.count == 2, "\(list)")
        let cells = list.outputLines[1].split(separator: " ", omittingEmptySubsequences: true)
        #expect(cells.first == "signup" && cells.dropFirst(2) == ["database", "5", "0"], "\(list)")

        let show = try sandbox.run("forms", "show", "signup")
        #expect(show.status == 0, "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("label") && $0.hasSuffix("Sign up") }, "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("age ") && $0.contains("age(min: 18)") }, "\(show)")
        #expect(show.outputLines.contains { $0.hasPrefix("email ") && $0.contains(" yes") }, "\(show)")
        let json = try sandbox.run("--format", "json", "forms", "show", "signup")
        let form = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((form["fields"] as? [[String: Any]])?.map { $0["key"] as? String } == ["name", "email", "age", "card", "cvv"])
        #expect((form["version"] as? String)?.count == 64)

        let unknown = try sandbox.run("forms", "show", "sginup")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.contains("did you mean 'signup'"), "\(unknown)")
    }

    /// What cannot be retired, or shown, says why and where to look.
    @Test(arguments: TestBackend.all) func retiringOrShowingWhatIsNotThereSaysWhy(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        try sandbox.write("types/zip4.field", "field zip4\nmask \"0000\"\naccept \"1234\"\n")
        let builtIn = try sandbox.run("types", "retire", "age")
        #expect(builtIn.status == 2, "\(builtIn)")
        #expect(builtIn.errorLines == ["formulary: error: no type named 'age' is in the database; it is a built-in type, which "
                                       + "cannot be retired (a database type of that name, added with 'formulary types add', can)"], "\(builtIn)")
        let folder = try sandbox.run("--plugins", "types", "types", "retire", "zip4")
        #expect(folder.errorLines == ["formulary: error: no type named 'zip4' is in the database; it comes from the plugin folder "
                                      + "types: remove its file there instead"], "\(folder)")
        let nowhere = try sandbox.run("types", "retire", "nosuch")
        #expect(nowhere.errorLines.first?.hasSuffix("; 'formulary types list' shows where each one comes from") == true, "\(nowhere)")
        #expect(try sandbox.run("types", "show", "nosuch").errorLines
                == ["formulary: error: unknown type 'nosuch'; 'formulary types list' shows the types there are"])
        #expect(try sandbox.run("types", "test", "agee").errorLines == ["formulary: error: unknown type 'agee'; did you mean 'age'?"])
        #expect(try sandbox.run("forms", "show", "nosuch").errorLines
                == ["formulary: error: unknown form 'nosuch'; 'formulary forms list' shows the forms there are"])
        #expect(try sandbox.run("history", "99").errorLines == ["formulary: error: no entry with id 99 (see 'formulary entries list')"])
    }
}
