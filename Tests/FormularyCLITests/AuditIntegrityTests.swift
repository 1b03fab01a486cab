import Foundation
import Testing

/// `audit verify` proves the data, not only the log: every change made with plain SQL to
/// entries, imports, type and form versions, runs and their results, and to the log itself,
/// is named, and a head kept elsewhere catches a log cut or rewritten whole. (The tampering
/// is done with SQLite's SQL on a file; the untouched database and `audit head` are checked
/// on both kinds.)
@Suite struct AuditIntegrityTests {
    /// A database with every kind of audited change: a form and a type added, a plain
    /// import, a keyed import that updates an entry (so it has an earlier version), a
    /// validation run with failures, a retirement.
    static func populated(_ backend: TestBackend = .sqlite) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("visa.field", Fixtures.visaType)
        try sandbox.mustRun("types", "add", "visa.field")
        try sandbox.write("one.csv", """
            name,email,age,card,cvv
            Ada,ada@example.com,36,4111 1111 1111 1111,123
            Bob,bob@example,12,4111 1111 1111 1112,45
            Cy,cy@example.com,40,,

            """)
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "one.csv")
        try sandbox.write("two.csv", "name,email,age\nAda Lovelace,ada@example.com,37\nDee,dee@example.com,17\n")
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "two.csv")
        let validate = try sandbox.run("validate")
        guard validate.status == 1 else { throw Sandbox.SetupFailure(result: validate) }
        try sandbox.mustRun("types", "retire", "visa")
        return sandbox
    }

    @Test(arguments: TestBackend.all) func anUntouchedDatabaseVerifiesAndSaysWhatItChecked(_ backend: TestBackend) throws {
        let sandbox = try Self.populated(backend)
        let ok = try sandbox.run("audit", "verify")
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout.contains("audit log verifies: 7 records"), "\(ok)")
        #expect(ok.stdout.contains("integrity check ok"), "\(ok)")
        #expect(ok.stdout.contains("data matches the log: 2 imports (5 entry versions), 2 type changes, 1 form change, 1 run"), "\(ok)")
        let json = try sandbox.run("--format", "json", "audit", "verify")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
        #expect((object["problems"] as? [Any])?.isEmpty == true)
        #expect((object["covered"] as? [String: Any])?["entry_versions"] as? Int == 5)
        // No digest lets a short secure value be guessed: they are keyed, and the log
        // never holds the value itself.
        #expect(!withoutTimesAndHashes(try sandbox.run("--format", "json", "audit").stdout).contains("123"))
    }

    /// One change made from outside, what area names it, and a phrase of the message.
    struct Tampering: Sendable, CustomTestStringConvertible {
        var name: String
        var sql: String?
        var python: String?
        var area: String
        var says: String
        var testDescription: String { name }
    }

    static let tamperings: [Tampering] = [
        Tampering(name: "an entry's values changed",
                  sql: "UPDATE entries SET vals = CAST(vals || x'00' AS BLOB) WHERE id = 3",
                  area: "entries", says: "its entries differ from what audit record 3 recorded"),
        Tampering(name: "an earlier version of an entry changed",
                  sql: "UPDATE entry_versions SET vals = CAST(vals || x'00' AS BLOB)",
                  area: "entries", says: "import 1"),
        Tampering(name: "an entry deleted",
                  sql: "DELETE FROM entries WHERE id = 2",
                  area: "entries", says: "entries were inserted or deleted"),
        Tampering(name: "an entry inserted into an import",
                  sql: "INSERT INTO entries (form_id, key, layout_id, vals, created_in) SELECT form_id, 'x', layout_id, vals, created_in FROM entries WHERE id = 3",
                  area: "entries", says: "entries were inserted or deleted"),
        Tampering(name: "entries inserted with an import of their own",
                  sql: """
                      INSERT INTO imports (form_id, at, actor, source) VALUES (1, '2026-11-30T00:00:00.000Z', 'mallory', 'x.csv');
                      INSERT INTO entries (form_id, key, layout_id, vals, created_in) SELECT form_id, 'y', layout_id, vals, 3 FROM entries WHERE id = 3
                      """,
                  area: "imports", says: "import 3 (x.csv into 'signup' at 2026-11-30T00:00:00.000Z by mallory) has no audit record"),
        Tampering(name: "an entry moved to another version's writer",
                  sql: "UPDATE entries SET updated_in = NULL, version = 1 WHERE updated_in IS NOT NULL",
                  area: "entries", says: "its history ends at version 1"),
        Tampering(name: "an imports row deleted",
                  sql: "PRAGMA foreign_keys = OFF; DELETE FROM imports WHERE id = 2",
                  area: "imports", says: "recorded import 2, which is gone"),
        Tampering(name: "a form's source edited, its hash recomputed",
                  python: """
                      src = db.execute("SELECT source FROM form_versions WHERE id = 1").fetchone()[0].replace("age(min: 18)", "age")
                      db.execute("UPDATE form_versions SET source = ?, hash = ? WHERE id = 1", (src, sha256(src)))
                      """,
                  area: "forms", says: "the add of"),
        Tampering(name: "a type's source edited",
                  sql: "UPDATE type_versions SET source = source || '# edited' WHERE name = 'visa'",
                  area: "types", says: "its source does not hash to its recorded hash"),
        Tampering(name: "a type version slipped in",
                  python: """
                      src = "field visa extends credit-card\\n"
                      db.execute("INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor) VALUES ('visa', ?, ?, 'database', 'x', 'mallory')", (sha256(src), src))
                      """,
                  area: "types", says: "was neither added nor used by a run"),
        Tampering(name: "a retirement undone",
                  sql: "DELETE FROM type_events WHERE action = 'retire'",
                  area: "types", says: "recorded type event 2, which is gone"),
        Tampering(name: "run results deleted",
                  sql: "DELETE FROM run_results WHERE entry_id = 2",
                  area: "runs", says: "run 1: its status, counts or results differ from what audit record 6 recorded"),
        Tampering(name: "a run's counts changed",
                  sql: "UPDATE runs SET entries_invalid = 0, errors = 0",
                  area: "runs", says: "run 1: its status, counts or results differ"),
        Tampering(name: "a failed rule's message changed",
                  sql: "UPDATE run_rules SET message = 'fine'",
                  area: "runs", says: "run 1: its status, counts or results differ"),
        Tampering(name: "a run's type versions swapped",
                  sql: "UPDATE run_type_versions SET type_version_id = (SELECT min(id) FROM type_versions) WHERE field = 'email'",
                  area: "runs", says: "what it judged with (forms, type versions) differs from what audit record 5 recorded"),
        Tampering(name: "a run inserted",
                  sql: "INSERT INTO runs (started_at, actor, today, last_import, status, host, pid, process_start) VALUES ('2026-11-30T00:00:00.000Z', 'mallory', '2026-11-30', 2, 'complete', 'h', 1, '')",
                  area: "runs", says: "run 2 (started 2026-11-30T00:00:00.000Z by mallory) has no audit record"),
        Tampering(name: "a trigger dropped",
                  sql: "DROP TRIGGER audit_log_no_delete",
                  area: "schema", says: "trigger audit_log_no_delete is missing"),
        Tampering(name: "a trigger added",
                  sql: "CREATE TRIGGER quietly AFTER INSERT ON entries BEGIN UPDATE entries SET key = NULL WHERE id = NEW.id; END",
                  area: "schema", says: "trigger quietly is not part of Formulary's schema"),
        Tampering(name: "a record's actor edited (guard removed first)",
                  sql: "DROP TRIGGER audit_log_no_update; UPDATE audit_log SET actor = 'mallory' WHERE seq = 3",
                  area: "log", says: "record 3: content does not match its hash"),
        Tampering(name: "a record replaced (guards removed first)",
                  python: """
                      drop_trigger("audit_log_append_only")
                      drop_trigger("audit_head_follows_log")
                      db.execute("INSERT OR REPLACE INTO audit_log SELECT seq, at, 'mallory', action, subject, details, prev_hash, hash FROM audit_log WHERE seq = 4")
                      """,
                  area: "log", says: "record 4"),
        Tampering(name: "a forged record appended for an import",
                  python: """
                      seq, prev = db.execute("SELECT seq, hash FROM audit_head").fetchone()
                      details = '{"added":3,"digest":"' + "0" * 64 + '","import":1,"updated":0}'
                      at = "2026-11-30T00:00:00.000Z"
                      db.execute("INSERT INTO audit_log VALUES (?, ?, 'mallory', 'import', 'signup', ?, ?, ?)",
                                 (seq + 1, at, details, prev, record_hash(prev, seq + 1, at, "mallory", "import", "signup", details)))
                      """,
                  area: "imports", says: "audit records 3 and 8 both record import 1"),
    ]

    @Test(arguments: tamperings) func detects(_ tampering: Tampering) throws {
        let sandbox = try Self.populated()
        #expect(try sandbox.run("audit", "verify").status == 0)
        if let sql = tampering.sql { try SQLiteShell(path: sandbox.databasePath).execute(sql) }
        if let python = tampering.python { try Tamper.python(sandbox.databasePath, python) }
        let result = try sandbox.run("audit", "verify")
        #expect(result.status == 1, "\(result)")
        let line = "\(tampering.area): "
        #expect(result.outputLines.contains { $0.contains(line) && $0.contains(tampering.says) },
                "expected '\(line)…\(tampering.says)…' in:\n\(result.stdout)")
        let json = try sandbox.run("--format", "json", "audit", "verify")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == false)
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.contains { $0["area"] as? String == tampering.area }, "\(problems)")
    }

    @Test func theGuardsRefuseReplacingRecordsAndMovingTheHead() throws {
        let sandbox = try Self.populated()
        let sql = try SQLiteShell(path: sandbox.databasePath)
        let refused = [
            // REPLACE deletes the old row without firing DELETE triggers: refused on insert.
            "INSERT OR REPLACE INTO audit_log SELECT seq, at, 'mallory', action, subject, details, prev_hash, hash FROM audit_log WHERE seq = 4",
            "INSERT INTO audit_log SELECT seq + 100, at, actor, action, subject, details, prev_hash, hash FROM audit_log WHERE seq = 7",
            "UPDATE audit_head SET seq = 4",
            "UPDATE audit_head SET hash = (SELECT hash FROM audit_log WHERE seq = 4)",
            "INSERT OR REPLACE INTO audit_head VALUES (1, 4, (SELECT hash FROM audit_log WHERE seq = 4))",
            "DELETE FROM audit_head",
            "UPDATE audit_key SET key = zeroblob(32)",
            "INSERT OR REPLACE INTO audit_key VALUES (1, zeroblob(32))",
        ]
        for statement in refused {
            #expect(throws: SQLiteShell.Failure.self, "\(statement)") { try sql.execute(statement) }
        }
        #expect(try sandbox.run("audit", "verify").status == 0)
    }

    /// Records cut off the end, the head rewound, and the guards put back exactly as they
    /// were: the chain and the schema verify, but the data those records described has no
    /// record any more.
    @Test func aLogCutAtItsEndShowsAsDataWithoutRecords() throws {
        let sandbox = try Self.populated()
        let head = try sandbox.mustRun("audit", "head").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(head.hasPrefix("7 ") && head.count == 2 + 64, "\(head)")
        try Tamper.python(sandbox.databasePath, Tamper.cutLog(from: 5))
        let result = try sandbox.run("audit", "verify")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("audit log verifies: 4 records"), "the chain alone looks fine: \(result)")
        #expect(!result.stdout.contains("schema:"), "\(result)")
        #expect(result.stdout.contains("run 1 (started"), "\(result)")
        #expect(result.stdout.contains("the retire of"), "\(result)")
        let withHead = try sandbox.run("audit", "verify", "--head", head)
        #expect(withHead.status == 1 && withHead.stdout.contains("head: the log holds no record with hash"), "\(withHead)")
    }

    /// A log rewritten whole, every hash recomputed: nothing inside the database can tell.
    /// A head kept elsewhere can.
    @Test func aRewrittenLogIsCaughtByAHeadKeptElsewhere() throws {
        let sandbox = try Self.populated()
        let head = try sandbox.mustRun("audit", "head").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let hash = String(head.split(separator: " ")[1])
        #expect(try sandbox.run("audit", "verify", "--head", hash).status == 0)
        #expect(try sandbox.run("audit", "verify", "--head", head).status == 0, "the whole 'SEQ HASH' line is taken too")

        try Tamper.rewriteChain(sandbox.databasePath, edit: "actor = 'mallory' if seq == 2 else actor")
        #expect(try sandbox.auditRecords()[1]["actor"] as? String == "mallory")
        let inside = try sandbox.run("audit", "verify")
        #expect(inside.status == 0, "a consistent rewrite is undetectable from inside (docs/reliability.md says so): \(inside)")
        let outside = try sandbox.run("audit", "verify", "--head", hash)
        #expect(outside.status == 1, "\(outside)")
        #expect(outside.stdout.contains("head: the log holds no record with hash \(hash)"), "\(outside)")
    }

    @Test func aDamagedPageFailsVerify() throws {
        let sandbox = try Self.populated()
        let sql = try SQLiteShell(path: sandbox.databasePath)
        let page = try #require(Int(try sql.scalar("SELECT rootpage FROM sqlite_schema WHERE name = 'run_results'") ?? ""))
        let size = try #require(Int(try sql.scalar("PRAGMA page_size") ?? ""))
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: sandbox.databasePath))
        try handle.seek(toOffset: UInt64((page - 1) * size))
        try handle.write(contentsOf: Data(repeating: 0xA5, count: size))
        try handle.close()
        let result = try sandbox.run("audit", "verify")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("database: SQLite's integrity check"), "\(result)")
    }

    @Test(arguments: TestBackend.all) func headAndItsOptionCheckTheirInput(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        let empty = try sandbox.mustRun("audit", "head")
        #expect(empty.stdout == "0 " + String(repeating: "0", count: 64) + "\n")
        let json = try sandbox.mustRun("--format", "json", "audit", "head")
        #expect(json.stdout == "{\"seq\":0,\"hash\":\"" + String(repeating: "0", count: 64) + "\"}\n")
        for bad in ["abc", String(repeating: "g", count: 64), String(repeating: "0", count: 63)] {
            let result = try sandbox.run("audit", "verify", "--head", bad)
            #expect(result.status == 2 && result.stderr.contains("--head '\(bad)' is not a record hash; give the 64 "
                                                                 + "hexadecimal digits 'formulary audit head' prints"), "\(result)")
        }
    }
}
