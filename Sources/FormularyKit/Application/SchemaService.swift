import FormularyJSON
import FormularyStore

/// Creating the database and bringing its schema up to date (`init`, `migrate`).
public struct SchemaService {
    private let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// What `init` did.
    public struct Initialized: JSONObjectRepresentable, Sendable {
        /// The database as the user named it (a URL without its password).
        public var database: String
        /// Whether the database was created (a missing or empty file, a server database
        /// without Formulary's tables) rather than migrated.
        public var created: Bool
        /// The names of the migrations applied, oldest first (none when it was up to date).
        public var applied: [String]

        /// `{"database", "created", "applied": [names]}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("database", database)
            o.field("created", created)
            o.array("applied") { a in for name in applied { a.value(name) } }
        }
    }

    /// Creates the database, or applies its pending migrations (audited, one transaction).
    public func initialize() throws -> Initialized {
        let path = workspace.settings.databasePath
        if workspace.isServerDatabase {
            // The server database exists (createdb made it); it is "created" when `init` gives
            // it Formulary's tables, as an empty file is.
            let store = try workspace.open(.write, create: true, requireSchema: false)
            let existed = try store.migrationStatus().contains { if case .applied = $0 { true } else { false } }
            let applied = try store.migrate(actor: workspace.settings.actor)
            return Initialized(database: workspace.databaseName, created: !existed, applied: applied.map(\.name))
        }
        // An empty file (made by `touch`, or left by an init that failed) is created, not migrated.
        let existed = workspace.databaseExists && FileSystem.size(of: path).map { $0 > 0 } == true
        let store = try workspace.open(.write, create: true, requireSchema: false)
        let applied = try store.migrate(actor: workspace.settings.actor)
        return Initialized(database: path, created: !existed, applied: applied.map(\.name))
    }

    /// Applies the pending migrations (audited, one transaction); their names, oldest first.
    public func migrate() throws -> [String] {
        let store = try workspace.open(.write, requireSchema: false)
        return try store.migrate(actor: workspace.settings.actor).map(\.name)
    }

    /// One migration as `migrate --status` lists it.
    public struct MigrationRow: JSONObjectRepresentable, Sendable {
        /// The migration's number.
        public var id: Int
        /// Its name.
        public var name: String
        /// Whether the database has applied it.
        public var isApplied: Bool
        /// The SHA-256 of its text.
        public var sha256: String
        /// When it was applied (UTC), for an applied one.
        public var appliedAt: String?

        /// `{"id", "name", "status": "applied"|"pending", "sha256", "applied_at"}` (no
        /// `applied_at` for a pending one).
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("id", id)
            o.field("name", name)
            o.field("status", isApplied ? "applied" : "pending")
            o.field("sha256", sha256)
            if let appliedAt { o.field("applied_at", appliedAt) }
        }
    }

    /// The applied and the pending migrations, in order; changes nothing.
    public func migrationStatus() throws -> [MigrationRow] {
        let store = try workspace.open(.read, requireSchema: false)
        return try store.migrationStatus().map { row in
            switch row {
            case .applied(let m): MigrationRow(id: m.id, name: m.name, isApplied: true, sha256: m.sha256, appliedAt: m.appliedAt)
            case .pending(let m): MigrationRow(id: m.id, name: m.name, isApplied: false, sha256: m.sha256, appliedAt: nil)
            }
        }
    }
}
