import Foundation

/// Applies migrations to a database and checks the ones already applied.
///
/// The bookkeeping table `schema_migrations` belongs to the migrator, not to a migration: it
/// must exist before migration 1 can be recorded. The pending migrations run together with
/// their bookkeeping rows in one `BEGIN IMMEDIATE` transaction, and the list of applied
/// migrations is read again inside that transaction, so that a failure leaves no migration
/// half-applied and processes racing to migrate the same new file apply each one exactly once.
package struct Migrator: Sendable {
    package let migrations: [Migration]

    /// - Parameter migrations: defaults to the migrations embedded in the executable.
    package init(migrations: [Migration] = Migration.embedded) throws(MigrationError) {
        for (previous, next) in zip(migrations, migrations.dropFirst()) where next.id <= previous.id {
            throw .invalidList("migration \(next.name) does not follow \(previous.name)")
        }
        self.migrations = migrations
    }

    static let bookkeeping = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            id         INTEGER PRIMARY KEY,
            name       TEXT NOT NULL,
            sha256     TEXT NOT NULL,
            applied_at TEXT NOT NULL
        ) STRICT
        """

    /// The migrations recorded in `db`, in order (none for a new file).
    ///
    /// - Throws: ``MigrationError/foreignDatabase(tables:)`` when `db` has tables but no
    ///   bookkeeping table: it belongs to another application, and its "pending" migrations
    ///   must not be applied to it.
    package func applied(in db: Database) throws -> [AppliedMigration] {
        // One query decides: outside a transaction, two would read two snapshots, and a
        // migration committed between them would look like another application's tables.
        let tables = try Self.tables(in: db)
        guard tables.contains("schema_migrations") else {
            if !tables.isEmpty { throw MigrationError.foreignDatabase(tables: tables) }
            return []
        }
        return try db.cachedStatement("SELECT id, name, sha256, applied_at FROM schema_migrations ORDER BY id")
            .map { AppliedMigration(id: $0.int(0), name: $0.string(1), sha256: $0.string(2),
                                    appliedAt: $0.string(3)) }
    }

    /// The names of the tables and views of `db` (SQLite's own `sqlite_…` tables left out).
    static func tables(in db: Database) throws -> [String] {
        try db.cachedStatement("""
            SELECT name FROM sqlite_schema
            WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name
            """).map { $0.string(0) }
    }

    /// Throws when an applied migration is unknown to this executable or differs from its copy.
    package func check(_ applied: [AppliedMigration]) throws(MigrationError) {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.id, $0) })
        for record in applied {
            guard let migration = known[record.id] else {
                throw .unknown(id: record.id, name: record.name)
            }
            let expected = migration.sha256
            guard record.sha256 == expected else {
                throw .modified(id: record.id, name: record.name, recorded: record.sha256,
                                expected: expected)
            }
        }
    }

    /// Applied and pending migrations, after checking the applied ones.
    package func status(of db: Database) throws -> [MigrationStatus] {
        try status(applied: try applied(in: db))
    }

    /// The applied migrations (read from either kind of database) and the pending ones,
    /// after checking the applied ones against this executable's copies.
    package func status(applied: [AppliedMigration]) throws(MigrationError) -> [MigrationStatus] {
        try check(applied)
        let done = Set(applied.map(\.id))
        return applied.map(MigrationStatus.applied)
            + migrations.filter { !done.contains($0.id) }.map(MigrationStatus.pending)
    }

    /// True when every known migration is applied (and the applied ones check out).
    package func isUpToDate(_ db: Database) throws -> Bool {
        try status(of: db).allSatisfy { if case .applied = $0 { true } else { false } }
    }

    /// Applies the pending migrations in order; returns those this call applied.
    ///
    /// All of them run in one transaction, each with its bookkeeping row: when any statement
    /// fails (a broken migration, a full disk, an I/O error) the database is left exactly as it
    /// was, never at a schema between two versions. Nothing pending means no transaction and
    /// no write lock.
    ///
    /// `afterApplying` runs in the same transaction once the pending ones are applied, with
    /// those applied: for data steps that belong to a schema change (see ``Store/migrate(actor:)``).
    @discardableResult
    package func migrate(_ db: Database, now: () -> Date = Date.init,
                        afterApplying: ([AppliedMigration]) throws -> Void = { _ in }) throws -> [AppliedMigration] {
        let known = try applied(in: db)
        try check(known)
        guard migrations.contains(where: { migration in !known.contains { $0.id == migration.id } }) else {
            return []
        }
        return try db.transaction(.immediate) {
            // Another process may have applied some since we looked: look again under the lock
            // (and at a file that gained foreign tables meanwhile) before creating anything.
            let current = try self.applied(in: db)
            try check(current)
            try db.executeScript(Self.bookkeeping)
            var result: [AppliedMigration] = []
            for migration in migrations where !current.contains(where: { $0.id == migration.id }) {
                try db.executeScript(migration.sql)
                let record = AppliedMigration(id: migration.id, name: migration.name,
                                              sha256: migration.sha256,
                                              appliedAt: Timestamp.string(from: now()))
                try db.execute("INSERT INTO schema_migrations (id, name, sha256, applied_at) VALUES (?, ?, ?, ?)",
                               [.int(record.id), .text(record.name), .text(record.sha256),
                                .text(record.appliedAt)])
                result.append(record)
            }
            try afterApplying(result)
            return result
        }
    }
}
