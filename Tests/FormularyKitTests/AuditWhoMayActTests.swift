import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// `audit verify` through ``AuditService`` covers who may act, on both kinds of database: the
/// rows of `api_tokens` against the newest audit record of each token, `schema_migrations`
/// against this formulary's migrations, and tokens made before their records held digests,
/// sealed by migration 11. The tampering is SQL from a second connection, as `sqlite3` or
/// `psql` would send it.
struct AuditWhoMayActTests {
    enum Kind: String, Sendable, CustomTestStringConvertible {
        case sqlite, postgres
        /// PostgreSQL only with a test server.
        static var all: [Kind] { ScratchPostgresDatabase.serverURL == nil ? [.sqlite] : [.sqlite, .postgres] }
        var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }
    }

    /// An empty database of `kind`, kept until the value goes.
    final class TestDatabase {
        let kind: Kind
        let location: String
        private let scratch: ScratchPostgresDatabase?
        private let folder: URL?

        init(_ kind: Kind) throws {
            self.kind = kind
            if kind == .postgres {
                scratch = try ScratchPostgresDatabase()
                folder = nil
                location = scratch!.url
            } else {
                scratch = nil
                folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-who-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder!, withIntermediateDirectories: true)
                location = folder!.appendingPathComponent("t.db").path
            }
        }

        deinit { if let folder { try? FileManager.default.removeItem(at: folder) } }

        /// A workspace of its own each time: nothing cached between a change and a check.
        var workspace: Workspace {
            Workspace(settings: WorkspaceSettings(databasePath: location, pluginFolders: [], actor: "ada"))
        }

        /// Runs `script` from outside formulary.
        func tamper(_ script: String) throws {
            if kind == .postgres {
                try PostgresConnection(url: location).executeScript(script)
            } else {
                try Database(path: location).executeScript(script)
            }
        }

        func verify() throws -> FormularyKit.AuditReport {
            try AuditService(workspace: workspace).verify(expectedHead: nil)
        }

        /// A store with only the migrations before `id` (an older formulary's).
        func olderStore(before id: Int) throws -> Store {
            if kind == .postgres {
                return Store(backend: try PostgresBackend(url: location, migrations: Migration.embeddedPostgres.filter { $0.id < id }))
            }
            return try Store(path: location, migrations: Migration.embedded.filter { $0.id < id })
        }
    }

    /// A database with a read token `reader` (record 1) and an admin token `ops` (record 2),
    /// revoked (record 3), made through the services; and the two tokens.
    static func withTokens(_ kind: Kind) throws -> (TestDatabase, secrets: [String]) {
        let database = try TestDatabase(kind)
        _ = try SchemaService(workspace: database.workspace).initialize()
        let reader = try TokenService(workspace: database.workspace).add(name: "reader", scope: .read)
        let ops = try TokenService(workspace: database.workspace).add(name: "ops", scope: .admin)
        try TokenService(workspace: database.workspace).revoke(name: "ops")
        return (database, [reader.token, ops.token])
    }

    /// A change from outside: its SQL on each kind (a trigger is dropped for it: the guard's
    /// absence is named too, under `schema`), and what the report says about the tokens.
    struct Tampering: Sendable, CustomTestStringConvertible {
        var name: String
        var sqlite: String
        var postgres: String
        var says: String
        var testDescription: String { name }
    }

    static let tamperings: [Tampering] = [
        Tampering(name: "un-revoked",
                  sqlite: "DROP TRIGGER api_tokens_revoke_only; UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'",
                  postgres: "DROP TRIGGER api_tokens_revoke_only ON api_tokens; UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'",
                  says: "token 'ops' (id 2, scope admin, made at"),
        Tampering(name: "read raised to admin",
                  sqlite: "DROP TRIGGER api_tokens_revoke_only; UPDATE api_tokens SET scope = 'admin' WHERE name = 'reader'",
                  postgres: "DROP TRIGGER api_tokens_revoke_only ON api_tokens; UPDATE api_tokens SET scope = 'admin' WHERE name = 'reader'",
                  says: "the table gives it scope admin, but audit record 1 (token.add) recorded scope read"),
        Tampering(name: "an admin token inserted",
                  sqlite: "INSERT INTO api_tokens VALUES (3, 'root', 'admin', 'aa', '2026-11-30T00:00:00.000Z', 'mallory', NULL)",
                  postgres: "INSERT INTO api_tokens VALUES (3, 'root', 'admin', 'aa', '2026-11-30T00:00:00.000Z', 'mallory', NULL)",
                  says: "token 'root' (id 3, scope admin, made at 2026-11-30T00:00:00.000Z by mallory) has no audit record"),
        Tampering(name: "revoked at another time",
                  sqlite: "DROP TRIGGER api_tokens_revoke_only; UPDATE api_tokens SET revoked_at = '2099-01-01T00:00:00.000Z' WHERE name = 'ops'",
                  postgres: "DROP TRIGGER api_tokens_revoke_only ON api_tokens; UPDATE api_tokens SET revoked_at = '2099-01-01T00:00:00.000Z' WHERE name = 'ops'",
                  says: "the table says it was revoked at 2099-01-01T00:00:00.000Z, but audit record 3 (token.revoke) recorded its revocation at"),
    ]

    static let both = Kind.all

    @Test(arguments: both, tamperings) func tokensChangedOutsideFormularyAreNamed(_ kind: Kind, _ tampering: Tampering) throws {
        let (database, secrets) = try Self.withTokens(kind)
        let clean = try database.verify()
        #expect(clean.problems == [] && clean.covered.tokens == 2, "\(clean.problems)")
        let hashes = secrets.map(TokenService.hash)
        try database.tamper(kind == .sqlite ? tampering.sqlite : tampering.postgres)
        let report = try database.verify()
        #expect(report.problems.contains { $0.area == .tokens && $0.message.contains(tampering.says) }, "\(report.problems)")
        for problem in report.problems {
            #expect(!(secrets + hashes).contains { problem.message.contains($0) }, "a token or its hash in: \(problem)")
        }
    }

    @Test(arguments: both) func migrationRowsChangedOutsideFormularyAreNamed(_ kind: Kind) throws {
        let (database, _) = try Self.withTokens(kind)
        let newest = try #require(database.kind == .sqlite ? Migration.embedded.last : Migration.embeddedPostgres.last)
        #expect(newest.id == 14)
        try database.tamper("""
            DELETE FROM schema_migrations WHERE id = 4;
            UPDATE schema_migrations SET sha256 = '\(String(repeating: "0", count: 64))' WHERE id = 6;
            DELETE FROM schema_migrations WHERE id = 14
            """)
        let report = try database.verify()
        let messages = report.problems.filter { $0.area == .migrations }.map(\.message)
        #expect(messages == [
            "migration 6 (0006_incremental_runs.sql) is recorded with SHA-256 000000000000…, but this formulary's copy has \(try #require((kind == .sqlite ? Migration.embedded : Migration.embeddedPostgres).first { $0.id == 6 }).sha256.prefix(12))…: its row was edited, or the database was migrated from a changed file",
            "migration 4 (0004_type_version_secure.sql) is not recorded as applied, though later ones are: its row was deleted outside formulary",
            "migration 14 (0014_run_messages.sql) is not recorded as applied, but the schema holds what it creates: its row was deleted outside formulary",
        ], "\(report.problems)")
        #expect(report.problems.allSatisfy { $0.area == .migrations }, "the schema is checked as the known migrations make it: \(report.problems)")
    }

    /// Tokens made before migration 11 have records without digests: the migration seals
    /// their rows as they stand, and from then on they are proved like new ones. Before it,
    /// verify refuses the database as every command does (a pending migration is not a
    /// deleted row: the schema holds nothing of it).
    @Test(arguments: both) func tokensFromBeforeDigestsAreSealedByTheUpgrade(_ kind: Kind) throws {
        let database = try TestDatabase(kind)
        do {
            let old = try database.olderStore(before: 11)
            try old.migrate()
            // What formulary wrote before migration 11: the row, and a record with its scope.
            try old.transaction {
                try old.backend.insertToken(StoredToken(name: "reader", scope: "read", hash: TokenService.hash("fmy_a"),
                                                        createdAt: "2026-11-01T00:00:00.000Z", createdBy: "ada"))
                try old.appendAudit(actor: "ada", action: "token.add", subject: "reader", details: ["scope": .string("read")])
                try old.backend.insertToken(StoredToken(name: "ops", scope: "admin", hash: TokenService.hash("fmy_b"),
                                                        createdAt: "2026-11-01T00:00:01.000Z", createdBy: "ada"))
                try old.appendAudit(actor: "ada", action: "token.add", subject: "ops", details: ["scope": .string("admin")])
                _ = try old.backend.revokeToken(name: "ops", at: "2026-11-02T00:00:00.000Z")
                try old.appendAudit(actor: "ada", action: "token.revoke", subject: "ops")
            }
        }
        #expect(throws: StoreError.schemaOutOfDate(pending: ["0011_audit_tokens.sql", "0012_run_locale.sql", "0013_registry_settings.sql", "0014_run_messages.sql"])) { _ = try database.verify() }

        let store = try Store(location: StoreLocation(database.location))
        #expect(try store.migrate(actor: "upgrader").map(\.id) == [11, 12, 13, 14])
        let seal = try #require(try store.auditRecords().last)
        #expect(seal.seq == 4 && seal.action == "audit.seal" && seal.actor == "upgrader" && seal.subject == "tokens before digests")
        #expect(!seal.details.contains(TokenService.hash("fmy_a")) && !seal.details.contains(TokenService.hash("fmy_b")))
        let report = try database.verify()
        #expect(report.problems == [] && report.covered.tokens == 2, "\(report.problems)")

        // From now on the old tokens are proved like new ones.
        try database.tamper(kind == .sqlite
            ? "DROP TRIGGER api_tokens_revoke_only; UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'"
            : "DROP TRIGGER api_tokens_revoke_only ON api_tokens; UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'")
        let tampered = try database.verify().problems.filter { $0.area == .tokens }
        #expect(tampered.map(\.message) == [
            "token 'ops' (id 2, scope admin, made at 2026-11-01T00:00:01.000Z by ada): the table says it works, but audit record 4 (audit.seal) recorded its revocation at 2026-11-02T00:00:00.000Z: it was un-revoked outside formulary",
        ])
        // A database without tokens gets no seal.
        let empty = try TestDatabase(kind)
        let older = try empty.olderStore(before: 11)
        try older.migrate()
        let upgraded = try Store(location: StoreLocation(empty.location))
        try upgraded.migrate()
        #expect(try upgraded.auditRecords().isEmpty)
    }
}
