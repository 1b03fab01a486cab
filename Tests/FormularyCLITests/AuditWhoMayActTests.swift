import Foundation
import Testing

/// `audit verify` covers who may act: each token of `formulary serve` against the newest audit
/// record of it (un-revoked, given another scope, slipped in, deleted, or its records cut off
/// the end of the log), and `schema_migrations` against this formulary's migrations (a row
/// deleted, edited or added). The tampering is plain SQL from outside: Python's `sqlite3` on a
/// file (guards dropped and put back exactly as they were), statements on the server on
/// PostgreSQL (guards switched off and on again).
@Suite struct AuditWhoMayActTests {
    /// A database with a read token `reader` (record 1) and an admin token `ops` (record 2),
    /// revoked (record 3), and the two tokens as `tokens add` printed them.
    static func withTokens(_ backend: TestBackend) throws -> (Sandbox, secrets: [String]) {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        let reader = try sandbox.mustRun("tokens", "add", "reader", "--scope", "read").stdout
        let ops = try sandbox.mustRun("tokens", "add", "ops", "--scope", "admin").stdout
        try sandbox.mustRun("tokens", "revoke", "ops")
        let secrets = [reader, ops].map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(secrets.allSatisfy { $0.hasPrefix("fmy_") }, "\(secrets)")
        return (sandbox, secrets)
    }

    /// One change made from outside: as Python on an SQLite file (nil: not possible there),
    /// as statements on a PostgreSQL server (nil: not possible there), and what verify says.
    struct Tampering: Sendable, CustomTestStringConvertible {
        var name: String
        var python: String?
        var postgres: [String]?
        var area: String
        var says: [String]
        var testDescription: String { name }
    }

    /// The statements that cut records `from` on off the end of the log and rewind the head
    /// on PostgreSQL, guards switched off for it and on again.
    static func cutOnPostgres(from seq: Int) -> [String] {
        ["ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_delete",
         "ALTER TABLE audit_head DISABLE TRIGGER audit_head_follows_log",
         "DELETE FROM audit_log WHERE seq >= \(seq)",
         "UPDATE audit_head SET seq = \(seq - 1), hash = (SELECT hash FROM audit_log WHERE seq = \(seq - 1))",
         "ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_delete",
         "ALTER TABLE audit_head ENABLE TRIGGER audit_head_follows_log"]
    }

    static let tamperings: [Tampering] = [
        Tampering(name: "a revoked token un-revoked",
                  python: """
                      guard = drop_trigger("api_tokens_revoke_only")
                      db.execute("UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'")
                      db.execute(guard)
                      """,
                  postgres: ["ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_revoke_only",
                             "UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'",
                             "ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_revoke_only"],
                  area: "tokens", says: ["token 'ops' (id 2, scope admin", "the table says it works, but audit record 3 (token.revoke) recorded its revocation", "un-revoked outside formulary"]),
        Tampering(name: "a read token raised to admin",
                  python: """
                      guard = drop_trigger("api_tokens_revoke_only")
                      db.execute("UPDATE api_tokens SET scope = 'admin' WHERE name = 'reader'")
                      db.execute(guard)
                      """,
                  postgres: ["ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_revoke_only",
                             "UPDATE api_tokens SET scope = 'admin' WHERE name = 'reader'",
                             "ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_revoke_only"],
                  area: "tokens", says: ["token 'reader' (id 1, scope admin", "audit record 1 (token.add) recorded scope read"]),
        Tampering(name: "an admin token inserted",
                  python: """
                      db.execute("INSERT INTO api_tokens (id, name, scope, hash, created_at, created_by) VALUES (3, 'backdoor', 'admin', ?, '2026-11-30T00:00:00.000Z', 'mallory')", (sha256("fmy_guessed"),))
                      """,
                  postgres: ["INSERT INTO api_tokens (id, name, scope, hash, created_at, created_by) VALUES (3, 'backdoor', 'admin', encode(sha256('fmy_guessed'), 'hex'), '2026-11-30T00:00:00.000Z', 'mallory')"],
                  area: "tokens", says: ["token 'backdoor' (id 3, scope admin, made at 2026-11-30T00:00:00.000Z by mallory) has no audit record"]),
        Tampering(name: "a token's secret replaced",
                  python: """
                      guard = drop_trigger("api_tokens_revoke_only")
                      db.execute("UPDATE api_tokens SET hash = ? WHERE name = 'reader'", (sha256("fmy_known_to_mallory"),))
                      db.execute(guard)
                      """,
                  postgres: ["ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_revoke_only",
                             "UPDATE api_tokens SET hash = encode(sha256('fmy_known_to_mallory'), 'hex') WHERE name = 'reader'",
                             "ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_revoke_only"],
                  area: "tokens", says: ["token 'reader'", "its secret's hash, or when or by whom it was made, differs from what audit record 1 (token.add) recorded"]),
        Tampering(name: "a token deleted",
                  python: """
                      guard = drop_trigger("api_tokens_no_delete")
                      db.execute("DELETE FROM api_tokens WHERE name = 'reader'")
                      db.execute(guard)
                      """,
                  postgres: ["ALTER TABLE api_tokens DISABLE TRIGGER api_tokens_no_delete",
                             "DELETE FROM api_tokens WHERE name = 'reader'",
                             "ALTER TABLE api_tokens ENABLE TRIGGER api_tokens_no_delete"],
                  area: "tokens", says: ["audit record 1 recorded token 'reader' (id 1), which is gone"]),
        Tampering(name: "a revocation's record cut off the end of the log",
                  python: Tamper.cutLog(from: 3), postgres: cutOnPostgres(from: 3),
                  area: "tokens", says: ["token 'ops'", "the table says it was revoked at", "but audit record 2 (token.add), the newest record of it, says it works"]),
        Tampering(name: "a token's records cut off the end of the log",
                  python: Tamper.cutLog(from: 2), postgres: cutOnPostgres(from: 2),
                  area: "tokens", says: ["token 'ops' (id 2, scope admin", "has no audit record"]),
        Tampering(name: "a migration's row deleted",
                  python: "db.execute(\"DELETE FROM schema_migrations WHERE id = 5\")",
                  postgres: ["DELETE FROM schema_migrations WHERE id = 5"],
                  area: "migrations", says: ["migration 5 (0005_entry_sources.sql) is not recorded as applied, though later ones are: its row was deleted"]),
        Tampering(name: "the newest migration's row deleted",
                  python: "db.execute(\"DELETE FROM schema_migrations WHERE id = 14\")",
                  postgres: ["DELETE FROM schema_migrations WHERE id = 14"],
                  area: "migrations", says: ["migration 14 (0014_run_messages.sql) is not recorded as applied, but the schema holds what it creates"]),
        Tampering(name: "a migration's checksum altered",
                  python: "db.execute(\"UPDATE schema_migrations SET sha256 = ? WHERE id = 7\", (sha256('mallory'),))",
                  postgres: ["UPDATE schema_migrations SET sha256 = encode(sha256('mallory'), 'hex') WHERE id = 7"],
                  area: "migrations", says: ["migration 7 (0007_api_tokens.sql) is recorded with SHA-256", "but this formulary's copy has"]),
        Tampering(name: "a migration's name altered",
                  python: "db.execute(\"UPDATE schema_migrations SET name = '0002_nothing.sql' WHERE id = 2\")",
                  postgres: ["UPDATE schema_migrations SET name = '0002_nothing.sql' WHERE id = 2"],
                  area: "migrations", says: ["migration 2 is recorded as '0002_nothing.sql', but it is 0002_validation_runs.sql"]),
        // PostgreSQL has a migration of every number up to the newest: none is unknown there.
        Tampering(name: "a migration's row added",
                  python: "db.execute(\"INSERT INTO schema_migrations VALUES (10, '0010_more.sql', ?, '2026-11-30T00:00:00.000Z')\", (sha256('x'),))",
                  postgres: nil,
                  area: "migrations", says: ["schema_migrations records migration 10 (0010_more.sql), which this formulary does not have"]),
    ]

    @Test(arguments: TestBackend.all) func anUntouchedDatabaseVerifiesItsTokensAndMigrations(_ backend: TestBackend) throws {
        let (sandbox, _) = try Self.withTokens(backend)
        let ok = try sandbox.run("audit", "verify")
        #expect(ok.status == 0, "\(ok)")
        let migrations = backend == .sqlite ? 12 : 14
        #expect(ok.stdout.contains("database: integrity check ok; \(migrations) migrations recorded as this formulary has them, schema as they create it"), "\(ok)")
        #expect(ok.stdout.contains(", 0 runs, 2 tokens"), "\(ok)")
        let json = try sandbox.run("--format", "json", "audit", "verify")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let covered = try #require(object["covered"] as? [String: Any])
        #expect(covered["tokens"] as? Int == 2 && covered["migrations"] as? Int == migrations, "\(covered)")
        // The token records say which token and its scope, never the token or its hash.
        let hashes = try sandbox.query("SELECT hash FROM api_tokens").compactMap { $0.first ?? nil }
        let records = try sandbox.run("--format", "json", "audit").stdout
        #expect(hashes.count == 2 && !hashes.contains { records.contains($0) }, "\(records)")
    }

    /// Each tampering on each backend it can be made on.
    static var cases: [(TestBackend, Tampering)] {
        TestBackend.all.flatMap { backend in
            tamperings.filter { backend == .sqlite ? $0.python != nil : $0.postgres != nil }.map { (backend, $0) }
        }
    }

    @Test(arguments: cases) func detects(_ backend: TestBackend, _ tampering: Tampering) throws {
        let (sandbox, secrets) = try Self.withTokens(backend)
        #expect(try sandbox.run("audit", "verify").status == 0)
        let hashes = try sandbox.query("SELECT hash FROM api_tokens").compactMap { $0.first ?? nil }
        switch backend {
        case .sqlite: try Tamper.python(sandbox.databasePath, try #require(tampering.python))
        case .postgres: for statement in try #require(tampering.postgres) { _ = try sandbox.query(statement) }
        }
        let result = try sandbox.run("audit", "verify")
        #expect(result.status == 1, "\(result)")
        let line = "\(tampering.area): "
        #expect(result.outputLines.contains { output in output.contains(line) && tampering.says.allSatisfy(output.contains) },
                "expected '\(line)…\(tampering.says)…' in:\n\(result.stdout)")
        #expect(result.outputLines.filter { $0.hasPrefix("  ") }.allSatisfy { $0.hasPrefix("  \(tampering.area): ") },
                "the guards were put back as they were: nothing else is wrong\n\(result.stdout)")
        for secret in secrets + hashes {
            #expect(!result.stdout.contains(secret) && !result.stderr.contains(secret), "a token or its hash was printed: \(result)")
        }
        let json = try sandbox.run("--format", "json", "audit", "verify")
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.contains { $0["area"] as? String == tampering.area }, "\(problems)")
    }

    /// A token's records cut off the end are caught without a head; with the head taken
    /// before, the cut is named as such too.
    @Test(arguments: TestBackend.all) func aCutLogIsCaughtByTheTokensAndByAHeadKeptElsewhere(_ backend: TestBackend) throws {
        let (sandbox, _) = try Self.withTokens(backend)
        let head = try sandbox.mustRun("audit", "head").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        if backend == .sqlite {
            try Tamper.python(sandbox.databasePath, Tamper.cutLog(from: 3))
        } else {
            for statement in Self.cutOnPostgres(from: 3) { _ = try sandbox.query(statement) }
        }
        let result = try sandbox.run("audit", "verify", "--head", head)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("audit log verifies: 2 records"), "the chain alone looks fine: \(result)")
        #expect(result.stdout.contains("head: the log holds no record with hash"), "\(result)")
        #expect(result.stdout.contains("tokens: token 'ops'"), "\(result)")
    }

    /// The guards of migration 11 refuse what formulary never does to a token.
    @Test(arguments: TestBackend.all) func theGuardsRefuseChangingOrRemovingATokenButRevoking(_ backend: TestBackend) throws {
        let (sandbox, _) = try Self.withTokens(backend)
        var refused = [
            "UPDATE api_tokens SET revoked_at = NULL WHERE name = 'ops'",
            "UPDATE api_tokens SET revoked_at = '2026-11-30T00:00:00.000Z' WHERE name = 'ops'",
            "UPDATE api_tokens SET scope = 'admin' WHERE name = 'reader'",
            "UPDATE api_tokens SET hash = 'x', revoked_at = '2026-11-30T00:00:00.000Z' WHERE name = 'reader'",
            "DELETE FROM api_tokens WHERE name = 'reader'",
        ]
        refused.append(backend == .sqlite
            ? "INSERT OR REPLACE INTO api_tokens SELECT id, name, 'admin', hash, created_at, created_by, revoked_at FROM api_tokens WHERE name = 'reader'"
            : "TRUNCATE api_tokens")
        for statement in refused {
            #expect(throws: (any Error).self, "\(statement)") { _ = try sandbox.query(statement) }
        }
        #expect(try sandbox.run("audit", "verify").status == 0)
    }
}
