#if canImport(Glibc)
import Glibc
#endif
import FormularyKit
import FormularyStore

/// Whether a command only reads the database or also writes it.
enum StoreAccess {
    /// Opened read-only (`SQLITE_OPEN_READONLY`): works on a read-only file, folder or file
    /// system, never changes a byte, never turns an empty file into a database.
    case read
    /// Opened read-write: `init`, `migrate`, `types add/retire`, `forms add`, `import`, `validate`.
    case write
}

extension CommandContext {
    /// Whether the database file exists (commands that only read types work without one).
    var databaseExists: Bool {
        access(databasePath, F_OK) == 0
    }

    /// Opens the database for a command that needs one, checking its schema is current.
    /// `init` passes `create: true` and `migrate` `requireSchema: false`: they migrate it
    /// themselves.
    ///
    /// Before SQLite sees the file, it is checked to be one Formulary can use, so that the
    /// message says what is wrong with it: a folder (exit 2), an empty file (`init` was never
    /// run; only `init` makes it a database), a file that is not SQLite's, another
    /// application's SQLite database (exit 3, nothing written).
    func openStore(_ access: StoreAccess = .read, create: Bool = false, requireSchema: Bool = true) throws -> Store {
        let path = databasePath
        if FileSystem.isDirectory(path) {
            throw CommandFailure(status: .badInput, message: "--db \(path) is a folder; name the database file, "
                                 + "e.g. --db \(path.hasSuffix("/") ? path : path + "/")formulary.db")
        }
        var configuration = Database.Configuration()
        configuration.create = create
        if !databaseExists {
            if !create {
                throw CommandFailure(status: .environment,
                                     message: "no database at \(path); run 'formulary init' to create it, or pass --db PATH")
            }
            let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
            if !folder.isEmpty && !FileSystem.isDirectory(folder) {
                let what = Glibc.access(folder, F_OK) == 0 ? "\(folder) is a file, not a folder" : "the folder \(folder) does not exist"
                throw CommandFailure(status: .badInput, message: "cannot create the database \(path): \(what); "
                                     + "create the folder first, or pass --db with a path in a folder that exists")
            }
        } else if try checkDatabaseFile(path, initializing: create) {
            // A file that has content is looked at read-only first: a writer's connection turns
            // on WAL as it opens, which would already change another application's file.
            configuration.readOnly = true
            let reader = try Store(path: path, configuration: configuration)
            try checkSchema(of: reader, path: path, initializing: create, requireCurrent: requireSchema)
            if access == .read { return reader }
        }
        configuration.readOnly = access == .read
        return try Store(path: path, configuration: configuration)
    }

    /// Refuses another application's database, and one that was never initialised (unless
    /// `init` is initialising it); with `requireCurrent`, one with pending migrations too.
    private func checkSchema(of store: Store, path: String, initializing: Bool, requireCurrent: Bool) throws {
        do {
            if requireCurrent {
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
            throw CommandFailure(status: .environment, message: "\(path) is an SQLite database of another application: "
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
            header = try FileSystem.prefix(of: path, count: 16)
        } catch {
            throw CommandFailure(status: .environment, message: "cannot read the database \(error.description); "
                                 + "check the permissions of the file and its folder")
        }
        if header.isEmpty {
            if initializing { return false }
            throw notInitialized(path)
        }
        if header != Array("SQLite format 3\0".utf8) {
            throw CommandFailure(status: .environment, message: "\(path) is not an SQLite database (it does not begin "
                                 + "with SQLite's header), so it is not a Formulary database; nothing was written. "
                                 + "Check --db (or FORMULARY_DB): it names the database file 'formulary init' creates")
        }
        return true
    }

    private func notInitialized(_ path: String) -> CommandFailure {
        CommandFailure(status: .environment, message: "\(path) is not a Formulary database yet (it is empty, or has no "
                       + "tables); run 'formulary init' to make it one, or pass --db with the path of your database")
    }

    /// The registry with the database's types and forms when there is a database; commands
    /// that only check values work without one.
    func loadRegistry(extraFiles: [PluginFile] = [], store: Store? = nil) throws -> Registry {
        try Registry.load(folders: pluginFolders, store: store ?? (databaseExists ? openStore() : nil),
                          extraFiles: extraFiles)
    }

    /// Which stored values are secret, by the one rule of ``SecureFields``: the registry
    /// with this command's plugin folders, the one without them, and the type versions of
    /// recorded runs. A folder can add masking, never remove it.
    func secureFields(store: Store) throws -> SecureFields {
        SecureFields(store: store, registry: try loadRegistry(store: store))
    }
}
