import Foundation
import FormularyJSON
import FormularyRules

/// Formulary's database: the typed façade the application layer uses.
///
/// A store keeps its rows in a ``StoreBackend`` (today ``SQLiteBackend``, one SQLite file) and
/// adds what must behave the same on every backend: the audit chain and its hashes, the data
/// digests and their verification, what adding a version or ending a run records, and how a
/// run's verdict on an entry is derived.
///
/// Opening a store does not change its schema: call ``migrate(actor:)`` (the `init` and
/// `migrate` commands) or ``requireCurrentSchema()`` (every other command) first. Methods that
/// change registered types or forms append their own audit record in the same transaction;
/// imports and validation runs append theirs through their writers.
///
/// A store is one connection: use it from one thread at a time; validation workers read
/// through ``beginEntrySnapshots(count:)``.
package final class Store {
    /// Where the rows are kept.
    package let backend: any StoreBackend
    /// Where "now" comes from, for timestamps; tests fix it.
    package var clock: @Sendable () -> Date = { Date() }
    var layoutIDs: [[String]: Int64] = [:]
    var layoutFieldsByID: [Int64: [String]] = [:]
    /// The data-digest key, read once (it never changes: triggers refuse it).
    var cachedAuditKey: AuditKey?

    /// Opens (creating the file if needed) the SQLite database at `path`.
    package init(path: String, configuration: Database.Configuration = .init(),
                migrations: [Migration] = Migration.embedded) throws {
        backend = try SQLiteBackend(path: path, configuration: configuration, migrations: migrations)
    }

    /// A store over any backend.
    package init(backend: any StoreBackend) {
        self.backend = backend
    }

    /// The SQLite connection, for tests that look at rows or change them from outside.
    var database: Database {
        guard let sqlite = backend as? SQLiteBackend else { preconditionFailure("not an SQLite store") }
        return sqlite.database
    }

    // MARK: Schema

    /// Applies pending migrations; returns those applied by this call.
    ///
    /// The data steps that come with a schema change run in the same transaction: migration 4
    /// fills `secure` for the type versions stored before it, and migration 3 (data digests),
    /// on a database that already holds data, appends an `audit.seal` record by `actor` with the
    /// digests of everything written before (see ``sealExistingData(actor:)``); migration 11
    /// (token digests), on a database that has tokens, appends one with their rows as they
    /// stand (see ``sealExistingTokens(actor:)``).
    @discardableResult
    package func migrate(actor: String = "formulary") throws -> [AppliedMigration] {
        try backend.applyMigrations(now: clock) { applied in
            let ids = Set(applied.map(\.id))
            // The flags first: the seal digests the versions with them.
            if ids.contains(Self.secureFlagMigration) { try fillSecureFlags() }
            if ids.contains(Self.dataDigestsMigration) { try sealExistingData(actor: actor) }
            if ids.contains(Self.tokenDigestsMigration) { try sealExistingTokens(actor: actor) }
        }
    }

    /// The migration that brings data digests (`migrations/0003_audit_integrity.sql`).
    static let dataDigestsMigration = 3
    /// The migration that adds `type_versions.secure` (`migrations/0004_type_version_secure.sql`).
    static let secureFlagMigration = 4
    /// The migration from which token records hold digests (`migrations/0011_audit_tokens.sql`).
    static let tokenDigestsMigration = 11

    /// Sets each stored type version's `secure` from its source (migration 4's data step).
    func fillSecureFlags() throws {
        for version in try backend.allVersions(.type)
        where PluginSource.declaresSecure(typeSource: version.source, file: "type \(version.name)") {
            try backend.setSecure(typeVersionID: version.id, true)
        }
    }

    /// Applied and pending migrations (`migrate --status`).
    package func migrationStatus() throws -> [MigrationStatus] {
        try backend.migrationStatus()
    }

    /// The rows of `schema_migrations` as stored, not checked against this executable's
    /// migrations (`audit verify` compares them itself); empty for a database without tables.
    ///
    /// - Throws: ``MigrationError/foreignDatabase(tables:)`` for another application's database.
    package func recordedMigrations() throws -> [AppliedMigration] {
        try backend.recordedMigrations()
    }

    /// Throws unless every migration of this executable is applied and none was changed.
    ///
    /// - Throws: ``StoreError/notInitialized`` for a database without any table (an empty
    ///   file: `init` was never run on it), ``MigrationError/foreignDatabase(tables:)`` for
    ///   another application's database, ``StoreError/schemaOutOfDate(pending:)`` when
    ///   migrations are pending.
    package func requireCurrentSchema() throws {
        let status = try migrationStatus()
        if !status.contains(where: { if case .applied = $0 { true } else { false } }) {
            throw StoreError.notInitialized
        }
        let pending = status.compactMap { status -> String? in
            if case .pending(let migration) = status { migration.name } else { nil }
        }
        if !pending.isEmpty { throw StoreError.schemaOutOfDate(pending: pending) }
    }

    // MARK: Transactions and time

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction (a savepoint when nested).
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        do {
            return try backend.transaction(.write, body)
        } catch {
            // Rows created in the rolled-back work are gone; so must be their cached ids.
            clearLayoutCache()
            throw error
        }
    }

    /// Runs `body` in a deferred (read) transaction: a consistent snapshot for reports.
    package func read<T>(_ body: () throws -> T) throws -> T {
        try backend.transaction(.read, body)
    }

    /// The current time as stored (UTC ISO 8601 with milliseconds).
    package func timestamp() -> String { Timestamp.string(from: clock()) }

    // MARK: Audit

    /// Appends an audit record in the current transaction (or its own). Never pass secure values.
    @discardableResult
    package func appendAudit(actor: String, action: String, subject: String,
                            details: JSONValue = .object([:])) throws -> AuditRecord {
        try AuditLog.append(backend, actor: actor, action: action, subject: subject,
                            details: details, at: clock())
    }

    /// Audit records in order; see ``AuditLog/records(_:since:actor:limit:)``.
    package func auditRecords(since: String? = nil, actor: String? = nil,
                             limit: Int? = nil) throws -> [AuditRecord] {
        try backend.auditRecords(since: since, actor: actor, limit: limit)
    }

    /// Recomputes the audit chain (`audit verify`).
    package func verifyAudit() throws -> AuditVerification {
        try AuditLog.verify(backend)
    }
}

/// Store-level failures that are not SQLite's.
package enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Migrations are pending: run `formulary migrate` (or `init`).
    case schemaOutOfDate(pending: [String])
    /// No migration was ever applied (and the file has no table): `formulary init` was not run.
    case notInitialized
    /// The name has no current version in the database (never added, or retired).
    case notInDatabase(kind: DefinitionKind, name: String)
    /// No entry has that id.
    case noSuchEntry(Int64)
    /// Stored bytes that cannot be read.
    case corrupt(String)
    /// The run was no longer `running` when this process went to end it: another process
    /// (or an earlier call) ended it; nothing was changed.
    case runEnded(Int64)
    /// What the storage cannot do (runs shared between processes on SQLite): the argument
    /// names it.
    case needsServer(String)
    /// A snapshot of another process could not be joined: that process no longer holds it.
    case snapshotGone

    package var description: String {
        switch self {
        case .schemaOutOfDate(let pending):
            "the database schema is out of date (pending: \(pending.joined(separator: ", "))); "
                + "run `formulary migrate`"
        case .notInitialized:
            "the database has no tables: it is not a Formulary database yet; run `formulary init`"
        case let .notInDatabase(kind, name):
            "no \(kind.rawValue) named '\(name)' is in the database"
        case .noSuchEntry(let id):
            "no entry with id \(id)"
        case .corrupt(let what):
            "corrupt data in the database: \(what)"
        case .runEnded(let id):
            "run \(id) was already ended (by another process, or an earlier step); nothing was changed"
        case .needsServer(let what):
            "\(what) needs a PostgreSQL store (--db postgres://…); this one is an SQLite file, which one process validates alone"
        case .snapshotGone:
            "the process that started the run no longer holds the snapshot of its entries (it ended or died), so the run cannot be joined"
        }
    }
}
