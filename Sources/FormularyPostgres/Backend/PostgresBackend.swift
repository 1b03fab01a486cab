import FormularyStore
import Foundation

/// The PostgreSQL storage of a ``Store``: one connection to a database named by a
/// `postgres://` URL, the migrations of `migrations/postgres/`, and every statement Formulary
/// runs there, in PostgreSQL's dialect. One file per group of ``StoreBackend``'s requirements:
///
/// - schema, transactions and the audit log (this file; the storage checks of `audit verify`
///   in `PostgresBackend+Checks.swift`),
/// - type and form definitions (`PostgresBackend+Definitions.swift`),
/// - forms, layouts and imports (`PostgresBackend+Forms.swift`),
/// - entries: the import writer (row by row, not COPY yet), readers, the digests' walk and the
///   validation workers' scans on one exported snapshot (`PostgresBackend+Entries.swift`),
/// - validation runs (`PostgresBackend+Runs.swift`), and incremental runs' carrying
///   forward (`PostgresBackend+Carry.swift`),
/// - reports, aggregated on the server and read through a cursor (`PostgresBackend+Reports.swift`).
///
/// Created by ``Store/init(location:configuration:)`` for a `postgres://` location (what
/// `--db` names).
///
/// One connection, used from one thread at a time, like ``SQLiteBackend``.
public final class PostgresBackend {
    /// The connection (tests reach it).
    package let connection: PostgresConnection
    package let migrator: PostgresMigrator
    /// The URL as given (with its password, if any): `audit verify` opens a second connection.
    package let url: String
    /// The id the next new entry gets in the current write transaction; nil until an import
    /// reads it from the table. Ids are handed out here, not by the identity, so that they
    /// follow SQLite's rule (one more than the highest) and stay in the order entries were
    /// written while rows wait for COPY. Forgotten when a transaction or savepoint ends, since
    /// a rollback gives the ids back.
    package var nextEntryID: Int64?

    /// Connects to the database `url` names (`postgres://USER@HOST:PORT/NAME`). With
    /// `readOnly`, every transaction of the session is read-only (`default_transaction_read_only`),
    /// so the server refuses any write, whatever the statement: what a reading command
    /// promises (`impact`, reports) holds on the server's side too.
    package init(url: String, readOnly: Bool = false, migrations: [Migration] = Migration.embeddedPostgres) throws {
        connection = try PostgresConnection(url: url)
        if readOnly { try connection.executeScript("SET default_transaction_read_only = on") }
        migrator = try PostgresMigrator(migrations: migrations)
        self.url = url
    }

    /// The database as the user named it, without a password, for messages.
    package var location: String { connection.location }

    /// The advisory lock every write transaction takes first: writers run one at a time, as
    /// SQLite's `BEGIN IMMEDIATE` has them, so that what the store reads before it writes
    /// (the audit head, the newest import, a current version) is still true when it commits.
    /// ("FORMWRIT" in ASCII; the migrations' lock is another key.)
    static let writerLockKey: Int64 = 0x464F_524D_5752_4954

    // MARK: Schema and transactions

    package func applyMigrations(now: () -> Date,
                         afterApplying: ([AppliedMigration]) throws -> Void) throws -> [AppliedMigration] {
        try migrator.migrate(connection, now: now, afterApplying: afterApplying)
    }

    package func migrationStatus() throws -> [MigrationStatus] {
        try migrator.status(of: connection)
    }

    /// `.write`: `READ COMMITTED` under the writers' advisory lock; `.read`: one snapshot,
    /// read-only (a write inside a `.read` transaction is refused by the server, where SQLite
    /// would upgrade its lock). Inside a transaction, a savepoint.
    package func transaction<T>(_ kind: StoreTransactionKind, _ body: () throws -> T) throws -> T {
        if connection.isInTransaction {
            do {
                return try connection.inSavepoint(body)
            } catch {
                nextEntryID = nil
                throw error
            }
        }
        nextEntryID = nil
        defer { nextEntryID = nil }
        switch kind {
        case .write:
            return try connection.transaction(.readWrite) {
                try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.writerLockKey)])
                return try body()
            }
        case .read:
            return try connection.transaction(.readOnly, body)
        }
    }

    package var isInTransaction: Bool { connection.isInTransaction }

    package func inspect<T>(_ body: () throws -> T) throws -> T {
        try connection.executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { connection.rollbackIgnoringErrors() }
        return try body()
    }

    // MARK: The audit log

    package func auditKeyBytes() throws -> [UInt8] {
        guard let bytes = try connection.execute("SELECT key FROM audit_key WHERE id = 1").first?.bytes(0),
              bytes.count == 32 else {
            throw StoreError.corrupt("the audit key (table audit_key) is missing")
        }
        return bytes
    }

    package func auditHead() throws -> (seq: Int64, hash: String)? {
        guard let row = try connection.execute("SELECT seq, hash FROM audit_head WHERE id = 1").first else { return nil }
        return (try row.int64(0), try row.string(1))
    }

    package func auditActions(after seq: Int64) throws -> [String] {
        try connection.execute("SELECT DISTINCT action FROM audit_log WHERE seq > $1", [.integer(seq)])
            .map { try $0.string(0) }
    }

    /// PostgreSQL keeps no such number a client can read cheaply; the head is read instead.
    package func dataVersion() throws -> Int64? { nil }

    package func insertAuditRecord(_ r: AuditRecord) throws {
        try connection.execute("""
            INSERT INTO audit_log (seq, at, actor, action, subject, details, prev_hash, hash)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
            """, [.integer(r.seq), .text(r.at), .text(r.actor), .text(r.action), .text(r.subject),
                  .text(r.details), .text(r.prevHash), .text(r.hash)])
    }

    /// `since` compares as bytes (`COLLATE "C"`), as SQLite compares text: under a
    /// language's collation, punctuation may weigh nothing.
    package func auditRecords(since: String?, actor: String?, limit: Int?) throws -> [AuditRecord] {
        try connection.execute("""
            SELECT \(Self.auditColumns) FROM audit_log
            WHERE ($1::text IS NULL OR at COLLATE "C" >= $1) AND ($2::text IS NULL OR actor = $2)
            ORDER BY seq LIMIT $3::bigint
            """, [.text(since), .text(actor), .integer(limit.map(Int64.init))])
            .map(Self.auditRecord(from:))
    }

    /// Pages of records by `seq` (each one statement), so that neither side holds the log.
    package func forEachAuditRecord(_ body: (AuditRecord) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let page = try connection.execute("SELECT \(Self.auditColumns) FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT 2000",
                                              [.integer(after)])
            if page.isEmpty { return }
            for row in page {
                let record = try Self.auditRecord(from: row)
                try body(record)
                after = record.seq
            }
        }
    }

    package func lastAuditRecord() throws -> AuditRecord? {
        try connection.execute("SELECT \(Self.auditColumns) FROM audit_log ORDER BY seq DESC LIMIT 1")
            .first.map(Self.auditRecord(from:))
    }

    static let auditColumns = "seq, at, actor, action, subject, details, prev_hash, hash"

    static func auditRecord(from row: PostgresRow) throws(PostgresError) -> AuditRecord {
        AuditRecord(seq: try row.int64(0), at: try row.string(1), actor: try row.string(2),
                    action: try row.string(3), subject: try row.string(4), details: try row.string(5),
                    prevHash: try row.string(6), hash: try row.string(7))
    }
}

/// Every requirement is implemented (one file per group).
extension PostgresBackend: StoreBackend {}

extension Store {
    /// A store on the PostgreSQL database `url` names (`postgres://USER@HOST:PORT/NAME`), for
    /// the package's own tools (benchmarks); others use ``Store/init(location:configuration:)``.
    package static func postgres(url: String) throws -> Store {
        Store(backend: try PostgresBackend(url: url))
    }
}

extension Store {
    /// Runs a statement outside any transaction on a PostgreSQL store (`CREATE DATABASE` for
    /// the benchmarks); an error on an SQLite store.
    package func executeAdministrative(_ sql: String) throws {
        guard let postgres = backend as? PostgresBackend else {
            throw StoreError.corrupt("not a PostgreSQL store")
        }
        try postgres.connection.executeScript(sql)
    }
}

extension PostgresBackend {
    /// Makes `postgres://` and `postgresql://` URLs open this backend everywhere a store is
    /// opened by location (``Store/init(location:configuration:)``, and so every command and
    /// service): call it once at start. FormularyStore links no libpq; this module does.
    public static func install() {
        ServerBackends.install { url, readOnly in try PostgresBackend(url: url, readOnly: readOnly) }
    }
}
