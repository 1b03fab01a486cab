import FormularyRules
import FormularyStore

/// Field types and forms: reading the files a command names, admitting and storing
/// definitions (`types add`, `forms add`), retiring them, and what the database keeps of
/// a name (`types show`, `types history`).
public struct RegistryService {
    let workspace: Workspace

    /// The service for `workspace`'s registry and database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// The plugin files named on a command line (`types lint`, `types add`, `forms add`),
    /// each of the `--plugins` source of its own folder. A folder named as a file is refused
    /// with what to do instead.
    public static func readPluginFiles(_ paths: [String]) throws -> [PluginFile] {
        try paths.map { path in
            if FileSystem.isDirectory(path) {
                throw ServiceError(.badInput, "\(path) is a folder, not a plugin file; name the "
                                   + ".field and .form files in it, or search the folder with --plugins \(path)")
            }
            let folder = PluginFolder(path: path.split(separator: "/").dropLast().joined(separator: "/"), origin: .option)
            return PluginFile(path: path, bytes: try FileSystem.read(path, limit: 4 << 20), source: .folder(folder))
        }
    }

    /// Hides a database type or form from the registry (audited); its versions stay.
    /// Returns the version that was current.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the database holds no such name,
    ///   saying where the name comes from when a built-in or a plugin folder has it.
    public func retire(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion {
        let store = try workspace.store(.write)
        do {
            return DefinitionVersion(try store.retire(kind.stored, name: name, actor: workspace.settings.actor))
        } catch let error as StoreError {
            throw workspace.serviceError(for: error, command: ["\(kind.rawValue)s", "retire"]) ?? error
        }
    }

    /// Every version the database keeps of a type (added, or used by a validation run),
    /// oldest first; none without a database.
    public func storedVersions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion] {
        guard workspace.databaseExists else { return [] }
        return try workspace.store(.read).versions(kind.stored, name: name).map(DefinitionVersion.init)
    }
}
