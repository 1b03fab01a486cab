/// One numbered file of `migrations/`: the SQL that brings the schema from version `id - 1`
/// to version `id`.
package struct Migration: Sendable, Hashable {
    /// The file's number (`0002_…` is 2). Migrations apply in increasing order.
    package var id: Int
    /// The file name, e.g. `0001_initial.sql`.
    package var name: String
    /// The file's text, byte for byte.
    package var sql: String

    package init(id: Int, name: String, sql: String) {
        self.id = id
        self.name = name
        self.sql = sql
    }

    /// SHA-256 of the text, in hex: what the database records when the migration is applied.
    package var sha256: String { SHA256.hex(sql) }
}

/// A migration recorded as applied in a database.
package struct AppliedMigration: Sendable, Hashable {
    package var id: Int
    package var name: String
    package var sha256: String
    /// UTC ISO 8601.
    package var appliedAt: String

    package init(id: Int, name: String, sha256: String, appliedAt: String) {
        self.id = id
        self.name = name
        self.sha256 = sha256
        self.appliedAt = appliedAt
    }
}

/// Where a migration stands in one database, for `migrate --status`.
package enum MigrationStatus: Sendable, Hashable {
    case applied(AppliedMigration)
    case pending(Migration)

    package var id: Int {
        switch self {
        case .applied(let applied): applied.id
        case .pending(let migration): migration.id
        }
    }

    package var name: String {
        switch self {
        case .applied(let applied): applied.name
        case .pending(let migration): migration.name
        }
    }
}

/// Why a database's schema cannot be trusted by this executable.
package enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database applied a migration whose text differs from this executable's copy.
    case modified(id: Int, name: String, recorded: String, expected: String)
    /// The database applied a migration this executable does not have (a newer binary did).
    case unknown(id: Int, name: String)
    /// The list of migrations itself is wrong (duplicate or non-increasing numbers).
    case invalidList(String)
    /// The database has tables but no migration bookkeeping: it belongs to another
    /// application, and Formulary neither reads it nor adds its own tables to it.
    case foreignDatabase(tables: [String])

    package var description: String {
        switch self {
        case let .modified(id, name, recorded, expected):
            "migration \(id) (\(name)) was applied with SHA-256 \(recorded), but this formulary's "
                + "copy has \(expected): the migration file was changed after it was applied; "
                + "refusing to use the database"
        case let .unknown(id, name):
            "the database has migration \(id) (\(name)) applied, which this formulary does not "
                + "know: it was written by a newer version; refusing to use it"
        case let .invalidList(reason):
            "invalid migration list: \(reason)"
        case let .foreignDatabase(tables):
            "the database belongs to another application: it has tables (\(Self.sample(tables))) "
                + "but no Formulary migration records; refusing to use it"
        }
    }

    /// The first few names, then how many more: `notes, tags and 15 more`.
    package static func sample(_ names: [String], limit: Int = 3) -> String {
        guard names.count > limit else {
            return names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names.last!
        }
        return names.prefix(limit).joined(separator: ", ") + " and \(names.count - limit) more"
    }
}
