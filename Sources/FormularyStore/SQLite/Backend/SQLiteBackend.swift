import Foundation

/// The SQLite storage of a ``Store``: one connection to a database file, the migrations of
/// `migrations/`, and every statement Formulary runs on it. The only place that speaks SQLite's
/// SQL; see ``StoreBackend`` for what it provides.
package final class SQLiteBackend: StoreBackend {
    /// The connection (tests reach it through `@testable import`).
    let database: Database
    let migrator: Migrator

    /// Opens (by default creating) the database file at `path`.
    package init(path: String, configuration: Database.Configuration = .init(),
                migrations: [Migration] = Migration.embedded) throws {
        database = try Database(path: path, configuration: configuration)
        migrator = try Migrator(migrations: migrations)
    }

    /// A backend on an open connection (tests).
    init(database: Database, migrations: [Migration] = Migration.embedded) throws {
        self.database = database
        migrator = try Migrator(migrations: migrations)
    }

    package var location: String { database.path }

    // MARK: Schema and transactions

    package func applyMigrations(now: () -> Date,
                                afterApplying: ([AppliedMigration]) throws -> Void) throws -> [AppliedMigration] {
        try migrator.migrate(database, now: now, afterApplying: afterApplying)
    }

    package func migrationStatus() throws -> [MigrationStatus] {
        try migrator.status(of: database)
    }

    package func transaction<T>(_ kind: StoreTransactionKind, _ body: () throws -> T) throws -> T {
        // A write takes SQLite's write lock up front: upgrading a read lock later can meet a
        // SQLITE_BUSY that no busy handler resolves.
        try database.transaction(kind == .write ? .immediate : .deferred, body)
    }

    package var isInTransaction: Bool { database.isInTransaction }

    package func inspect<T>(_ body: () throws -> T) throws -> T {
        try database.executeScript("BEGIN DEFERRED")
        defer { if database.isInTransaction { try? database.executeScript("ROLLBACK") } }
        return try body()
    }

    // MARK: The audit log

    package func auditKeyBytes() throws -> [UInt8] {
        let statement = try database.cachedStatement("SELECT key FROM audit_key WHERE id = 1")
        guard let bytes = try statement.first({ $0.blob(0) }), bytes.count == 32 else {
            throw StoreError.corrupt("the audit key (table audit_key) is missing")
        }
        return bytes
    }

    package func auditHead() throws -> (seq: Int64, hash: String)? {
        try database.cachedStatement("SELECT seq, hash FROM audit_head WHERE id = 1")
            .first { ($0.int64(0), $0.string(1)) }
    }

    package func auditActions(after seq: Int64) throws -> [String] {
        let statement = try database.cachedStatement("SELECT DISTINCT action FROM audit_log WHERE seq > ?")
        try statement.bind([.integer(seq)])
        return try statement.map { $0.string(0) }
    }

    package func dataVersion() throws -> Int64? {
        try database.cachedStatement("PRAGMA data_version").first { $0.int64(0) }
    }

    package func insertAuditRecord(_ r: AuditRecord) throws {
        try database.execute("""
            INSERT INTO audit_log (seq, at, actor, action, subject, details, prev_hash, hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [.integer(r.seq), .text(r.at), .text(r.actor), .text(r.action), .text(r.subject),
                  .text(r.details), .text(r.prevHash), .text(r.hash)])
    }

    package func auditRecords(since: String?, actor: String?, limit: Int?) throws -> [AuditRecord] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.auditColumns) FROM audit_log
            WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR actor = ?2)
            ORDER BY seq LIMIT ?3
            """)
        try statement.bind([.text(since), .text(actor), .integer(Int64(limit ?? -1))])
        return try statement.map(Self.auditRecord(from:))
    }

    package func forEachAuditRecord(_ body: (AuditRecord) throws -> Void) throws {
        let statement = try database.makeStatement("SELECT \(Self.auditColumns) FROM audit_log ORDER BY seq")
        try statement.forEachRow { try body(Self.auditRecord(from: $0)) }
    }

    package func lastAuditRecord() throws -> AuditRecord? {
        try database.cachedStatement("SELECT \(Self.auditColumns) FROM audit_log ORDER BY seq DESC LIMIT 1")
            .first(Self.auditRecord(from:))
    }

    static let auditColumns = "seq, at, actor, action, subject, details, prev_hash, hash"

    static func auditRecord(from row: Row) -> AuditRecord {
        AuditRecord(seq: row.int64(0), at: row.string(1), actor: row.string(2), action: row.string(3),
                    subject: row.string(4), details: row.string(5), prevHash: row.string(6),
                    hash: row.string(7))
    }
}
