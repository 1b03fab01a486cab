import FormularyStore

extension Registry {
    /// The database's current (not retired) types and forms, as plugin files of the
    /// `database` source: what `types add` and `forms add` stored, in canonical form.
    package static func databaseFiles(of store: Store) throws -> [PluginFile] {
        var files: [PluginFile] = []
        for kind in [FormularyStore.DefinitionKind.type, .form] {
            for version in try store.currentVersions(kind) {
                let ext = kind == .type ? "field" : "form"
                files.append(PluginFile(path: "database:\(version.name)@\(version.shortHash).\(ext)",
                                        bytes: Array(version.source.utf8), source: .database))
            }
        }
        return files
    }

    /// The registry as a command sees it with a database: built-in types, the database's
    /// types and forms, the plugin folders, then `extraFiles`.
    package static func load(folders: [PluginFolder], store: Store?,
                            extraFiles: [PluginFile] = []) throws -> Registry {
        let databaseFiles = try store.map(databaseFiles(of:)) ?? []
        return try load(folders: folders, databaseFiles: databaseFiles, extraFiles: extraFiles)
    }
}
