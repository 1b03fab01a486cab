/// A folder on the plugin search path, and where it was named.
public struct PluginFolder: Sendable, Hashable {
    public enum Origin: String, Sendable, Hashable {
        /// An entry of `FORMULARY_PATH`.
        case environment
        /// A `--plugins` option.
        case option
    }
    public var path: String
    public var origin: Origin
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
    public var bytes: [UInt8]
    public var source: TypeSource
    public init(path: String, bytes: [UInt8], source: TypeSource) {
        self.path = path
        self.bytes = bytes
        self.source = source
    }
}
