/// A folder on the plugin search path, and where it was named.
public struct PluginFolder: Sendable, Hashable {
    /// How the folder was named.
    public enum Origin: String, Sendable, Hashable {
        /// An entry of `FORMULARY_PATH`.
        case environment
        /// A `--plugins` option.
        case option
    }
    /// The folder's path as given.
    public var path: String
    /// Whether `FORMULARY_PATH` or `--plugins` named it.
    public var origin: Origin
    /// Makes a folder entry.
    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }
}

/// Where a type or form came from. Sources are ordered by precedence, lowest first:
/// built-in, database, `FORMULARY_PATH` folders, `--plugins` folders; a later source
/// overrides an earlier one of the same name.
public enum TypeSource: Sendable, Hashable, CustomStringConvertible {
    case builtin
    case database
    case folder(PluginFolder)

    /// `built-in`, `database` or the folder's path, as listings show it.
    public var description: String {
        switch self {
        case .builtin: "built-in"
        case .database: "database"
        case .folder(let f): f.path
        }
    }

    /// `builtin`, `database`, `path` (FORMULARY_PATH) or `plugins` (--plugins), for JSON.
    public var kind: String {
        switch self {
        case .builtin: "builtin"
        case .database: "database"
        case .folder(let f): f.origin == .environment ? "path" : "plugins"
        }
    }
}

/// A plugin file handed to the registry: its name for diagnostics, its bytes, its source.
public struct PluginFile: Sendable {
    /// Shown in diagnostics, e.g. `plugins/age.field` or `/home/me/types/visa.field`.
    public var path: String
    /// The file's contents, not yet decoded (the lexer reports bad UTF-8 with its place).
    public var bytes: [UInt8]
    /// Which source the file belongs to.
    public var source: TypeSource
    /// Makes a plugin file.
    public init(path: String, bytes: [UInt8], source: TypeSource) {
        self.path = path
        self.bytes = bytes
        self.source = source
    }
}
