#if canImport(Glibc)
import Glibc
#endif
import FormularyKit
import FormularyStore

extension CommandContext {
    /// Whether the database file exists (commands that only read types work without one).
    var databaseExists: Bool {
        access(databasePath, F_OK) == 0
    }

    /// Opens the database for a command that needs one, checking its schema is current.
    /// `init` and `migrate` pass `requireSchema: false` and migrate it themselves.
    func openStore(create: Bool = false, requireSchema: Bool = true) throws -> Store {
        if !create && !databaseExists {
            throw CommandFailure(status: .environment,
                                 message: "no database at \(databasePath); run 'formulary init' to create it, or pass --db PATH")
        }
        var configuration = Database.Configuration()
        configuration.create = create
        let store = try Store(path: databasePath, configuration: configuration)
        if requireSchema { try store.requireCurrentSchema() }
        return store
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
