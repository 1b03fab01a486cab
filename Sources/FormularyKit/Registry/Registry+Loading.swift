#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyRules

extension Registry {
    /// Loads the registry the way every command sees it: the built-in types, then the
    /// database's (passed in, already read), then each plugin folder in order, then
    /// `extraFiles` (files named on a command line).
    ///
    /// - Throws: `FileError` when a folder cannot be read, a file in it cannot be read,
    ///   or a symbolic link leads out of its folder, loops, or names no file.
    package static func load(folders: [PluginFolder], databaseFiles: [PluginFile] = [],
                            extraFiles: [PluginFile] = [],
                            includeBuiltins: Bool = true) throws(FileError) -> Registry {
        var files = includeBuiltins ? builtinFiles + builtinCatalogFiles : []
        files += databaseFiles
        // A file named on the command line that also lies in a plugin folder is read once,
        // as the command-line file; otherwise it would be its own duplicate.
        let named = Set(extraFiles.compactMap { FileSystem.realPath($0.path) })
        for folder in folders {
            guard FileSystem.isDirectory(folder.path) else {
                let origin = folder.origin == .environment ? "FORMULARY_PATH" : "--plugins"
                if folder.path.isEmpty {
                    throw FileError(path: "\(origin) ''", reason: "names no folder; give the path of one")
                }
                let reason = access(folder.path, F_OK) == 0
                    ? "is a file, not a folder (named by \(origin)); name the folder that holds plugin files"
                    : "does not exist (named by \(origin))"
                throw FileError(path: folder.path, reason: reason)
            }
            for path in try FileSystem.files(in: folder.path, extensions: [".field", ".form", MessageFile.fileExtension])
            where !named.contains(FileSystem.realPath(path) ?? path) {
                files.append(PluginFile(path: path, bytes: try FileSystem.read(path, limit: 4 << 20),
                                        source: .folder(folder)))
            }
        }
        return Registry(files: files + extraFiles)
    }
}
