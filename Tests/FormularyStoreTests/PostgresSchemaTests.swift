import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// The PostgreSQL schema keeps the audit log's rules as SQLite's triggers do: appends only,
/// in order; the head follows the log; the key and the head cannot be replaced — and, in
/// PostgreSQL's own terms, TRUNCATE is refused too.
struct PostgresSchemaTests {
    static let zeros = String(repeating: "0", count: 64)

    func migrated() throws -> (PostgresTestDatabase, PostgresConnection) {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try PostgresMigrator().migrate(db)
        return (database, db)
    }

    func append(_ db: PostgresConnection, seq: Int64, prev: String, hash: String) throws {
        try db.execute("""
            INSERT INTO audit_log (seq, at, actor, action, subject, details, prev_hash, hash)
            VALUES ($1, '2026-12-01T00:00:00Z', 'ann', 'types.add', 'x', '{}', $2, $3)
            """, [.integer(seq), .text(prev), .text(hash)])
    }

    func refused(_ db: PostgresConnection, _ sql: String, _ arguments: [PostgresValue] = []) -> PostgresError? {
        #expect(throws: PostgresError.self, "\(sql) was not refused") { try db.execute(sql, arguments) }
    }

    @Test(.needsPostgres) func theLogTakesAppendsInOrderAndTheHeadFollows() throws {
        let (database, db) = try migrated()
        defer { withExtendedLifetime(database) {} }
        let first = String(repeating: "a", count: 64), second = String(repeating: "b", count: 64)
        try append(db, seq: 1, prev: Self.zeros, hash: first)
        try append(db, seq: 2, prev: first, hash: second)
        let head = try #require(try db.execute("SELECT seq, hash FROM audit_head WHERE id = 1").first)
        #expect(try head.int64(0) == 2 && head.string(1) == second)

        // Out of order, a wrong previous hash, a replayed record: refused, head unchanged.
        let gap = #expect(throws: PostgresError.self) { try append(db, seq: 4, prev: second, hash: first) }
        #expect(gap?.sqlState == "P0001" && gap?.message.contains("append-only") == true)
        #expect(throws: PostgresError.self) { try append(db, seq: 3, prev: first, hash: first) }
        #expect(throws: PostgresError.self) { try append(db, seq: 2, prev: first, hash: second) }
        #expect(try db.scalarInt64("SELECT seq FROM audit_head") == 2)
    }

    @Test(.needsPostgres) func theLogAndItsHeadCannotBeRewritten() throws {
        let (database, db) = try migrated()
        defer { withExtendedLifetime(database) {} }
        let first = String(repeating: "a", count: 64)
        try append(db, seq: 1, prev: Self.zeros, hash: first)
        #expect(refused(db, "UPDATE audit_log SET actor = 'mallory'")?.message.contains("UPDATE is refused") == true)
        #expect(refused(db, "DELETE FROM audit_log")?.message.contains("DELETE is refused") == true)
        #expect(refused(db, "TRUNCATE audit_log")?.message.contains("TRUNCATE is refused") == true)
        #expect(refused(db, "UPDATE audit_head SET seq = 0, hash = $1", [.text(Self.zeros)]) != nil)
        #expect(refused(db, "DELETE FROM audit_head") != nil)
        #expect(refused(db, "TRUNCATE audit_head") != nil)
        #expect(refused(db, "INSERT INTO audit_head (id, seq, hash) VALUES (2, 0, $1)", [.text(Self.zeros)]) != nil)
        #expect(try db.scalarInt64("SELECT count(*) FROM audit_log") == 1)
    }

    @Test(.needsPostgres) func theAuditKeyCannotBeReplaced() throws {
        let (database, db) = try migrated()
        defer { withExtendedLifetime(database) {} }
        let key = try #require(try db.execute("SELECT key FROM audit_key").first?.bytes(0))
        #expect(refused(db, "UPDATE audit_key SET key = $1", [.bytes(Array(repeating: 1, count: 32))]) != nil)
        #expect(refused(db, "DELETE FROM audit_key") != nil)
        #expect(refused(db, "TRUNCATE audit_key") != nil)
        #expect(refused(db, "INSERT INTO audit_key (id, key) VALUES (1, $1)", [.bytes(Array(repeating: 1, count: 32))]) != nil)
        #expect(try db.execute("SELECT key FROM audit_key").first?.bytes(0) == key)

        // Each database draws its own key.
        let (database2, other) = try migrated()
        defer { withExtendedLifetime(database2) {} }
        #expect(try other.execute("SELECT key FROM audit_key").first?.bytes(0) != key)
    }

    @Test(.needsPostgres) func theTablesCheckWhatSQLitesCheck() throws {
        let (database, db) = try migrated()
        defer { withExtendedLifetime(database) {} }
        #expect(refused(db, "INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor) VALUES ('t', 'short', '', 'database', '', 'ann')")?.sqlState == "23514")
        #expect(refused(db, "INSERT INTO type_events (name, action, at, actor) VALUES ('t', 'add', '', 'ann')")?.sqlState == "23514")
        #expect(refused(db, "INSERT INTO runs (started_at, actor, today, last_import, status, host, pid, process_start) VALUES ('', 'ann', '', 0, 'paused', 'h', 1, '')")?.sqlState == "23514")
        // Explicit ids are taken (a copied registry keeps its ids), and entries' keys are
        // unique per form only when present.
        try db.execute("INSERT INTO forms (id, name) VALUES (7, 'signup')")
        try db.executeScript("""
            INSERT INTO entries (form_id, key, layout_id, vals, created_in) VALUES (7, NULL, 1, '\\x00', 1), (7, NULL, 1, '\\x00', 1), (7, 'k', 1, '\\x00', 1);
            """)
        #expect(refused(db, "INSERT INTO entries (form_id, key, layout_id, vals, created_in) VALUES (7, 'k', 1, $1, 1)", [.bytes([0])])?.sqlState == "23505")
        let secure = try db.execute("""
            SELECT data_type FROM information_schema.columns WHERE table_name = 'type_versions' AND column_name = 'secure'
            """).first?.string(0)
        #expect(secure == "boolean")
    }
}
