import FormularyStore
import Foundation

/// Applies the PostgreSQL migrations (`migrations/postgres/`) to a database and checks the
/// ones already applied, with the same bookkeeping and checksums as ``Migrator`` on SQLite.
///
/// The pending migrations run together with their bookkeeping rows in one transaction that
/// first takes a transaction-level advisory lock (`pg_advisory_xact_lock`): processes racing
/// to migrate the same new database queue on it, and each reads the list of applied migrations
/// again once it holds the lock, so each migration is applied exactly once. PostgreSQL's DDL is
/// transactional, so a failure leaves the schema as it was, never between two versions. The
/// lock is released by the commit or rollback, also when the process dies.
package struct PostgresMigrator: Sendable {
    /// The migrations this executable knows, in order.
    package let migrations: [Migration]
    /// The same checks as SQLite's (order of the list, checksums of the applied ones).
    private let checker: Migrator

    /// The advisory lock's key: one 64-bit number, the same in every Formulary process.
    /// ("FORMULARY" in ASCII, read as a big-endian integer.)
    static let lockKey: Int64 = 0x464F_524D_554C_4152

    /// - Parameter migrations: defaults to the PostgreSQL migrations embedded in the executable.
    package init(migrations: [Migration] = Migration.embeddedPostgres) throws(MigrationError) {
        checker = try Migrator(migrations: migrations)
        self.migrations = migrations
    }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            id         BIGINT PRIMARY KEY,
            name       TEXT NOT NULL,
            sha256     TEXT NOT NULL,
            applied_at TEXT NOT NULL
        )
        """

    /// The migrations recorded in `db`, in order (none for a new database).
    ///
    /// - Throws: ``MigrationError/foreignDatabase(tables:)`` when the schema Formulary works
    ///   in (the connection's `current_schema()`) has tables but no bookkeeping table: it
    ///   belongs to another application, and the pending migrations must not be applied to it.
    package func applied(in db: PostgresConnection) throws -> [AppliedMigration] {
        let tables = try Self.tables(in: db)
        guard tables.contains("schema_migrations") else {
            if !tables.isEmpty { throw MigrationError.foreignDatabase(tables: tables) }
            return []
        }
        return try db.execute("SELECT id, name, sha256, applied_at FROM schema_migrations ORDER BY id")
            .map { row throws(PostgresError) in
                AppliedMigration(id: try row.int(0), name: try row.string(1), sha256: try row.string(2),
                                 appliedAt: try row.string(3))
            }
    }

    /// The tables and views (plain, partitioned, materialized, foreign) of the connection's
    /// current schema, sorted.
    static func tables(in db: PostgresConnection) throws -> [String] {
        try db.execute("""
            SELECT c.relname::text FROM pg_catalog.pg_class c
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
            ORDER BY 1
            """).map { row throws(PostgresError) in try row.string(0) }
    }

    /// Throws when an applied migration is unknown to this executable or differs from its copy.
    package func check(_ applied: [AppliedMigration]) throws(MigrationError) {
        try checker.check(applied)
    }

    /// Applied and pending migrations, after checking the applied ones.
    package func status(of db: PostgresConnection) throws -> [MigrationStatus] {
        try checker.status(applied: try applied(in: db))
    }

    /// True when every known migration is applied (and the applied ones check out).
    package func isUpToDate(_ db: PostgresConnection) throws -> Bool {
        try status(of: db).allSatisfy { if case .applied = $0 { true } else { false } }
    }

    /// Applies the pending migrations in order under the advisory lock; returns those this
    /// call applied (none when another process applied them first).
    ///
    /// `afterApplying` runs in the same transaction once the pending ones are applied, with
    /// those applied: for data steps that belong to a schema change.
    @discardableResult
    package func migrate(_ db: PostgresConnection, now: () -> Date = Date.init,
                        afterApplying: ([AppliedMigration]) throws -> Void = { _ in }) throws -> [AppliedMigration] {
        let known = try applied(in: db)
        try check(known)
        guard migrations.contains(where: { migration in !known.contains { $0.id == migration.id } }) else {
            return []
        }
        // READ COMMITTED (not REPEATABLE READ): each statement after the lock sees what the
        // process that held it before committed; a snapshot taken at the lock would not.
        return try db.transaction(.readWrite) {
            try db.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
            let current = try self.applied(in: db)
            try check(current)
            try db.executeScript(Self.bookkeeping)
            var result: [AppliedMigration] = []
            for migration in migrations where !current.contains(where: { $0.id == migration.id }) {
                try db.executeScript(migration.sql)
                let record = AppliedMigration(id: migration.id, name: migration.name,
                                              sha256: migration.sha256,
                                              appliedAt: Timestamp.string(from: now()))
                try db.execute("INSERT INTO schema_migrations (id, name, sha256, applied_at) VALUES ($1, $2, $3, $4)",
                               [.int(record.id), .text(record.name), .text(record.sha256), .text(record.appliedAt)])
                result.append(record)
            }
            try afterApplying(result)
            return result
        }
    }
}
