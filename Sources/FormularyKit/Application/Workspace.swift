#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyRules
import FormularyStore

/// What a front end resolved before calling a service: which database, which plugin
/// folders, who is acting.
public struct WorkspaceSettings: Sendable {
    /// The database as the user named it (`--db`, `FORMULARY_DB`, `formulary.db`): an SQLite
    /// file's path, or a `postgres://` / `postgresql://` URL of a database on a server.
    public var databasePath: String
    /// Plugin folders, lowest precedence first.
    public var pluginFolders: [PluginFolder]
    /// Who is acting, as the audit log records it.
    public var actor: String
    /// The locale messages and labels are given in (`de`, `pt-BR`; `--locale`,
    /// `FORMULARY_LOCALE`, `LC_ALL`, `LC_MESSAGES`, `LANG`); nil, or one without message
    /// catalogs, for the types' own texts.
    public var locale: String?

    /// Settings naming the database, the plugin folders, the actor and the locale.
    public init(databasePath: String, pluginFolders: [PluginFolder], actor: String, locale: String? = nil) {
        self.databasePath = databasePath
        self.pluginFolders = pluginFolders
        self.actor = actor
        self.locale = locale
    }
}

/// Whether a service only reads the database or also writes it.
enum StoreAccess: Sendable {
    /// Opened read-only (`SQLITE_OPEN_READONLY`): works on a read-only file, folder or file
    /// system, never changes a byte, never turns an empty file into a database.
    case read
    /// Opened read-write: `init`, `migrate`, `types add/retire`, `forms add`, `import`, `validate`.
    case write
}

/// The database and the plugin folders a command works on: it opens the database for
/// reading or writing (refusing, with what to do, a file that is not a Formulary
/// database) and loads the registry as every command sees it. The application services
/// (``SchemaService``, ``RegistryService``, ``EntriesService``, ``AuditService``…) work
/// through one.
public final class Workspace {
    /// The database, plugin folders and actor.
    public let settings: WorkspaceSettings
    private var opened: (store: Store, access: StoreAccess)?

    /// A workspace with `settings`; nothing is opened until a service needs it.
    public init(settings: WorkspaceSettings) {
        self.settings = settings
    }

    /// Where the database is: an SQLite file or a database on a PostgreSQL server.
    var location: StoreLocation { StoreLocation(settings.databasePath) }

    /// Whether the database is on a PostgreSQL server rather than in an SQLite file.
    public var isServerDatabase: Bool { location.isServer }

    /// The database as messages and output show it: the file's path, or the URL with any
    /// password replaced by `•••`.
    public var databaseName: String { location.displayName }

    /// Whether there is a database to read (commands that only read types work without one).
    ///
    /// For a file, whether it exists. For a server database (a URL is never looked up as a
    /// file), whether it has Formulary's tables: one `createdb` made and `init` has not been
    /// run on counts as none, as a missing file does, so `check` and `types list` work there
    /// with the built-in types. When the server cannot be asked (unreachable, no such
    /// database, another application's tables), it counts as there, so that opening it says
    /// what is wrong.
    public var databaseExists: Bool {
        switch location {
        case .sqliteFile(let path):
            return access(path, F_OK) == 0
        case .postgres:
            if serverInitialized { return true }
            do {
                let probe = try Store(location: location, configuration: Self.readOnly)
                serverInitialized = try probe.migrationStatus().contains { if case .applied = $0 { true } else { false } }
                // The next reading open takes this connection rather than making another.
                if serverInitialized { serverProbe = probe }
            } catch {
                return true
            }
            return serverInitialized
        }
    }

    /// Whether the server database was seen with Formulary's tables (once seen, it keeps them).
    private var serverInitialized = false
    /// The read-only connection ``databaseExists`` opened to a server, until a reading
    /// open takes it.
    var serverProbe: Store?

    static var readOnly: Database.Configuration {
        var configuration = Database.Configuration()
        configuration.readOnly = true
        return configuration
    }

    /// The registry with the database's types and forms when there is a database, the
    /// plugin folders, then `extraFiles` (files named on a command line).
    package func registry(extraFiles: [PluginFile] = []) throws -> Registry {
        let registry = try Registry.load(folders: settings.pluginFolders, store: databaseExists ? store(.read) : nil,
                                         extraFiles: extraFiles)
        registry.localize(settings.locale)
        return registry
    }

    /// The registry with the database's types and forms read from `store`.
    func registry(store: Store, extraFiles: [PluginFile] = []) throws -> Registry {
        let registry = try Registry.load(folders: settings.pluginFolders, store: store, extraFiles: extraFiles)
        registry.localize(settings.locale)
        return registry
    }

    /// The store, opened once with `access` and its schema checked to be current (a
    /// read-write one serves reads too).
    func store(_ access: StoreAccess) throws -> Store {
        if let opened, opened.access == .write || access == .read { return opened.store }
        let store = try open(access)
        opened = (store, access)
        return store
    }

    /// Which stored values are secret, by the one rule of ``SecureFields``: the registry
    /// with the plugin folders, the one without them, and the type versions of recorded
    /// runs. A folder can add masking, never remove it.
    func secureFields(store: Store) throws -> SecureFields {
        SecureFields(store: store, registry: try registry(store: store))
    }
}
