#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyStore

extension Workspace {
    /// Opens the database, checking its schema is current. `init` passes `create: true`
    /// and `migrate` `requireSchema: false`: they migrate it themselves. `audit verify` passes
    /// `checkMigrations: false` too: it reports a changed `schema_migrations` row itself, by
    /// name, instead of refusing the database.
    ///
    /// Before SQLite sees the file, it is checked to be one Formulary can use, so that the
    /// message says what is wrong with it: a folder (bad input), an empty file (`init` was
    /// never run; only `init` makes it a database), a file that is not SQLite's, another
    /// application's SQLite database (environment failures, nothing written). A
    /// `postgres://` URL opens the database on that server instead (``openServer``).
    func open(_ access: StoreAccess, create: Bool = false, requireSchema: Bool = true,
              checkMigrations: Bool = true) throws -> Store {
        if case .postgres = location {
            return try openServer(access, initializing: create, requireSchema: requireSchema,
                                  checkMigrations: checkMigrations)
        }
        let path = settings.databasePath
        if FileSystem.isDirectory(path) {
            throw ServiceError(.badInput, "--db \(path) is a folder; name the database file, "
                               + "e.g. --db \(path.hasSuffix("/") ? path : path + "/")formulary.db")
        }
        var configuration = Database.Configuration()
        configuration.create = create
        if !databaseExists {
            if !create {
                throw ServiceError(.environment,
                                   "no database at \(path); run 'formulary init' to create it, or pass --db PATH")
            }
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            if !folder.isEmpty && !FileSystem.isDirectory(folder) {
                let what = Glibc.access(folder, F_OK) == 0 ? "\(folder) is a file, not a folder" : "the folder \(folder) does not exist"
                throw ServiceError(.badInput, "cannot create the database \(path): \(what); "
                                   + "create the folder first, or pass --db with a path in a folder that exists")
            }
        } else if try checkDatabaseFile(path, initializing: create) {
            // A file that has content is looked at read-only first: a writer's connection turns
            // on WAL as it opens, which would already change another application's file.
            configuration.readOnly = true
            let reader = try Store(path: path, configuration: configuration)
            try checkSchema(of: reader, path: path, initializing: create, requireCurrent: requireSchema,
                            checkMigrations: checkMigrations)
            if access == .read { return reader }
        }
        configuration.readOnly = access == .read
        return try Store(path: path, configuration: configuration)
    }

    /// Opens the database on a PostgreSQL server and checks its schema like a file's: a
    /// database without Formulary's tables is one `init` was never run on, one with other
    /// tables belongs to another application. A reading command's session is read-only on
    /// the server. The database itself must exist: `createdb` makes it, not `init`.
    private func openServer(_ access: StoreAccess, initializing: Bool, requireSchema: Bool,
                            checkMigrations: Bool) throws -> Store {
        let store: Store
        if access == .read, let probe = serverProbe {
            serverProbe = nil
            store = probe
        } else {
            var configuration = Database.Configuration()
            configuration.readOnly = access == .read
            store = try Store(location: location, configuration: configuration)
        }
        try checkSchema(of: store, path: databaseName, initializing: initializing, requireCurrent: requireSchema,
                        checkMigrations: checkMigrations)
        return store
    }

    /// Refuses another application's database, and one that was never initialised (unless
    /// `init` is initialising it); with `requireCurrent`, one with pending migrations too.
    /// Without `checkMigrations`, the recorded migrations are not compared with this
    /// formulary's (the caller does).
    private func checkSchema(of store: Store, path: String, initializing: Bool, requireCurrent: Bool,
                             checkMigrations: Bool) throws {
        do {
            if !checkMigrations {
                if try !initializing && store.recordedMigrations().isEmpty { throw StoreError.notInitialized }
            } else if requireCurrent {
                try store.requireCurrentSchema()
            } else {
                let status = try store.migrationStatus()
                if !initializing && !status.contains(where: { if case .applied = $0 { true } else { false } }) {
                    throw StoreError.notInitialized
                }
            }
        } catch StoreError.notInitialized {
            throw notInitialized(path)
        } catch MigrationError.foreignDatabase(let tables) {
            if store.isOnServer {
                throw ServiceError(.environment, "\(path) belongs to another application: its schema has tables "
                                   + "(\(MigrationError.sample(tables))) but no Formulary migration records, "
                                   + "so formulary will neither read it nor add its own tables to it; nothing was written. "
                                   + "Pass --db with the URL of a Formulary database (or of an empty one, for 'formulary init'; "
                                   + "createdb makes one)")
            }
            throw ServiceError(.environment, "\(path) is an SQLite database of another application: "
                               + "it has tables (\(MigrationError.sample(tables))) but no Formulary migration records, "
                               + "so formulary will neither read it nor add its own tables to it; nothing was written. "
                               + "Pass --db with the path of a Formulary database (or of a new file, for 'formulary init')")
        }
    }

    /// Refuses a file SQLite could not use as a Formulary database, before SQLite opens it:
    /// an empty file (unless `init` is making it a database), a file without SQLite's header.
    /// Returns whether the file has content (an empty one has nothing to look at).
    private func checkDatabaseFile(_ path: String, initializing: Bool) throws -> Bool {
        let header: [UInt8]
        do {
            // Through SQLite's own file handle: a descriptor of ours, closed, would drop the
            // locks of every connection this process already has to the file.
            header = try Database.fileHeader(path: path, count: 16)
        } catch {
            throw ServiceError(.environment, "cannot read the database \(path): \(error.message); "
                               + "check the permissions of the file and its folder")
        }
        if header.isEmpty {
            if initializing { return false }
            throw notInitialized(path)
        }
        if header != Array("SQLite format 3\0".utf8) {
            throw ServiceError(.environment, "\(path) is not an SQLite database (it does not begin "
                               + "with SQLite's header), so it is not a Formulary database; nothing was written. "
                               + "Check --db (or FORMULARY_DB): it names the database file 'formulary init' creates")
        }
        return true
    }

    private func notInitialized(_ path: String) -> ServiceError {
        if isServerDatabase {
            return ServiceError(.environment, "\(path) is not a Formulary database yet (it has no Formulary "
                                + "tables); run 'formulary init' to make it one, or pass --db with the URL of your database")
        }
        return ServiceError(.environment, "\(path) is not a Formulary database yet (it is empty, or has no "
                            + "tables); run 'formulary init' to make it one, or pass --db with the path of your database")
    }
}
