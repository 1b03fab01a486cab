import Foundation
import FormularyPostgres
import Testing

/// What is particular to a database on a PostgreSQL server named by `--db` or `FORMULARY_DB`
/// (a URL): the database must exist, failures name the server, passwords are never shown,
/// another application's tables are refused, and `demo` keeps to its own SQLite file. Plus the
/// commands no other suite covers on both kinds: `tokens`, and `check` with database types.
@Suite struct ServerDatabaseCommandTests {
    // MARK: On both kinds

    @Test(arguments: TestBackend.all) func tokensAreMadeListedAndRevoked(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        #expect(try sandbox.run("tokens", "list").outputLines.count <= 1, "no tokens before init")
        try sandbox.initDatabase()
        let added = try sandbox.run("tokens", "add", "ci", "--scope", "read")
        #expect(added.status == 0, "\(added)")
        let token = try #require(added.outputLines.first)
        #expect(token.hasPrefix("fmy_"), "\(added)")
        let list = try sandbox.run("--format", "json", "tokens", "list")
        let tokens = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]], "\(list)")
        #expect(tokens.count == 1 && tokens.first?["name"] as? String == "ci", "\(list)")
        #expect(!list.stdout.contains(token), "a token is shown only when it is made")
        let again = try sandbox.run("tokens", "add", "ci")
        #expect(again.status == 2, "a working name is taken: \(again)")
        #expect(try sandbox.run("tokens", "revoke", "ci").status == 0)
        let revokedTwice = try sandbox.run("tokens", "revoke", "ci")
        #expect(revokedTwice.status != 0, "\(revokedTwice)")
        let actions = try sandbox.auditRecords().compactMap { $0["action"] as? String }
        #expect(actions.filter { $0.hasPrefix("tokens.") || $0.hasPrefix("token") }.count == 2, "\(actions)")
    }

    @Test(arguments: TestBackend.all) func checkUsesTheDatabasesTypesAndWorksBeforeInit(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        // No database yet (no file; a server database without Formulary tables): built-ins only.
        #expect(try sandbox.run("check", "credit-card", "4111 1111 1111 1111").status == 0)
        let unknown = try sandbox.run("check", "visa", "4111 1111 1111 1111")
        #expect(unknown.status == 2, "\(unknown)")
        try sandbox.initDatabase()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        #expect(try sandbox.run("check", "visa", "4111 1111 1111 1111").status == 0)
        let mastercard = try sandbox.run("check", "visa", "5500 0000 0000 0004")
        #expect(mastercard.status == 1 && mastercard.stdout.contains("visa-prefix"), "\(mastercard)")
        let shown = try sandbox.run("types", "show", "visa")
        #expect(shown.status == 0 && shown.stdout.contains("Visa"), "\(shown)")
    }

    // MARK: On a server only

    /// `--db` with a URL; the URL with a password in it (the test server trusts local
    /// connections, so any password logs in), shown as `•••` in every output.
    @Test(.enabled(if: TestBackend.serverURL != nil, "needs FORMULARY_TEST_POSTGRES_URL (scripts/with-pg-cluster.sh)"))
    func aPasswordInTheURLIsNeverShown() throws {
        let sandbox = try Sandbox(backend: .postgres)
        let url = sandbox.databasePath
        let withPassword = url.replacingOccurrences(of: "://postgres@", with: "://postgres:hunter2@")
        try #require(withPassword != url, "the test server's URL has the user postgres: \(url)")
        let shown = url.replacingOccurrences(of: "://postgres@", with: "://postgres:•••@")
        let created = try sandbox.run(["--db", withPassword, "init"], environment: ["FORMULARY_DB": "ignored.db"])
        #expect(created.status == 0, "\(created)")
        #expect(created.stdout.hasPrefix("Created \(shown): applied 0001_"), "\(created)")
        let json = try sandbox.run(["--db", withPassword, "--format", "json", "init"])
        #expect(json.stdout.contains("\"database\":\"\(shown)\""), "\(json)")
        let migrate = try sandbox.run(["--db", withPassword, "migrate"])
        #expect(migrate.stdout == "Nothing to migrate: \(shown) is up to date.\n", "\(migrate)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("ignored.db")), "--db beats FORMULARY_DB")
        let missing = withPassword.replacingOccurrences(of: sandbox.server!.name, with: "no_such_db_here")
        let failed = try sandbox.run(["--db", missing, "entries", "list"])
        #expect(failed.status == 3, "\(failed)")
        for result in [created, json, migrate, failed] {
            #expect(!(result.stdout + result.stderr).contains("hunter2"), "\(result)")
        }
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs FORMULARY_TEST_POSTGRES_URL (scripts/with-pg-cluster.sh)"))
    func serverFailuresNameTheServerAndWhatToDo() throws {
        let sandbox = try Sandbox(backend: .postgres)
        let base = try #require(TestBackend.serverURL)
        // A database that does not exist.
        let missingURL = ScratchServerDatabase.url(base, database: "formulary_missing_db")
        let missing = try sandbox.run(["--db", missingURL, "entries", "list"])
        #expect(missing.status == 3, "\(missing)")
        #expect(missing.errorLines.first?.contains("has no database formulary_missing_db; nothing was written. "
                                                   + "Create it with 'createdb formulary_missing_db' and then run 'formulary init'") == true,
                "\(missing)")
        let missingInit = try sandbox.run(["--db", missingURL, "init"])
        #expect(missingInit.status == 3 && missingInit.stderr.contains("createdb formulary_missing_db"), "init does not create it: \(missingInit)")
        // A port nothing listens on.
        let unreachable = try sandbox.run(["--db", "postgres://ann@127.0.0.1:1/formulary?connect_timeout=5", "entries", "list"])
        #expect(unreachable.status == 3, "\(unreachable)")
        #expect(unreachable.errorLines.first == "formulary: error: cannot reach the PostgreSQL server at 127.0.0.1:1 "
                + "(for postgres://ann@127.0.0.1:1/formulary?connect_timeout=5); nothing was written. "
                + "Start the server, or check the host and port in --db (or FORMULARY_DB).", "\(unreachable)")
        #expect(!unreachable.stderr.contains("SQLite"), "\(unreachable)")
        // `postgresql://` is the same as `postgres://`.
        let long = sandbox.databasePath.replacingOccurrences(of: "postgres://", with: "postgresql://")
        #expect(try sandbox.run(["--db", long, "init"]).status == 0)
        #expect(try sandbox.run("entries", "list").status == 0)
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs FORMULARY_TEST_POSTGRES_URL (scripts/with-pg-cluster.sh)"))
    func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let sandbox = try Sandbox(backend: .postgres)
        _ = try sandbox.query("CREATE TABLE notes (id bigint PRIMARY KEY, body text)")
        _ = try sandbox.query("INSERT INTO notes VALUES (1, 'keep me')")
        for arguments in [["init"], ["migrate"], ["entries", "list"]] {
            let result = try sandbox.run(arguments)
            #expect(result.status == 3, "\(result)")
            #expect(result.errorLines.first?.contains("belongs to another application: its schema has tables (notes)") == true, "\(result)")
            #expect(!result.stderr.contains("SQLite"), "\(result)")
        }
        let tables = try sandbox.query("SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema()")
        #expect(tables == [["notes"]], "nothing was added")
        #expect(try sandbox.query("SELECT body FROM notes") == [["keep me"]])
    }

    @Test(.enabled(if: TestBackend.serverURL != nil, "needs FORMULARY_TEST_POSTGRES_URL (scripts/with-pg-cluster.sh)"))
    func demoKeepsToItsOwnSQLiteFile() throws {
        let sandbox = try Sandbox(backend: .postgres)
        sandbox.environment["TMPDIR"] = sandbox.root.path
        let demo = try sandbox.run("demo")
        #expect(demo.status == 0, "\(demo)")
        #expect(demo.stdout.contains("/demo.db"), "\(demo)")
        #expect(try sandbox.query("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == [["0"]],
                "the demo wrote to the server database")
    }
}
