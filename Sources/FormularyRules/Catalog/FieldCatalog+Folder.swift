#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FieldCatalog {
    /// A new catalog with every `.field` file of `folder` added (not its subfolders), in
    /// name order, as ``adding(source:file:)`` adds one, and every message catalog
    /// (`de.messages`…) as ``adding(messages:file:)`` adds one: the module's only
    /// file-system access, for an app that ships its own types as files.
    ///
    /// - Throws: ``FormularyError`` with every problem of every file (a folder is taken
    ///   whole or not at all): a file that cannot be read (`unreadable-file`), errors in a
    ///   file, two files declaring the same type (`duplicate-declaration`), a type that does
    ///   not resolve or compile with its parameters' defaults.
    public func adding(folder: String) throws(FormularyError) -> FieldCatalog {
        let names = try Self.fileNames(in: folder, ending: ".field")
        var entries = self.entries
        var problems: [Diagnostic] = []
        var declaredIn: [String: String] = [:]
        for name in names {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            do {
                let entry = try parseType(bytes: try Self.readFile(path), file: path)
                let type = entry.declaration.name
                if let other = declaredIn[type] {
                    let location = entry.declaration.location
                    problems.append(Diagnostic(RegistryDiagnostic.duplicateDeclaration(.type, named: type, alsoIn: other),
                                               at: location, sourceLine: entry.source.text(ofLine: location.line)))
                    continue
                }
                declaredIn[type] = path
                entries[type] = entry
            } catch {
                problems += error.diagnostics
            }
        }
        var messageFiles = addedMessageFiles
        for name in try Self.fileNames(in: folder, ending: MessageFile.fileExtension) {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            do {
                let file = MessageFile.parse(bytes: try Self.readFile(path), file: path)
                problems += file.diagnostics
                messageFiles.append(file)
            } catch {
                problems += error.diagnostics
            }
        }
        if problems.containsErrors { throw FormularyError(problems) }
        let catalog = replacing(entries: entries, addedMessageFiles: messageFiles)
        for type in declaredIn.keys.sorted() {
            do { try catalog.checkLoads(type) } catch { problems += error.diagnostics }
        }
        if problems.containsErrors { throw FormularyError(problems) }
        return catalog
    }

    /// The names of the files directly in `folder` whose names end in `suffix`, sorted.
    static func fileNames(in folder: String, ending suffix: String) throws(FormularyError) -> [String] {
        guard let directory = opendir(folder) else {
            throw unreadable(folder, reason: "cannot open the folder (\(String(cString: strerror(errno))))")
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(suffix), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// The bytes of a file (at most 4 MiB, like a plugin folder's for the command).
    static func readFile(_ path: String) throws(FormularyError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw unreadable(path, reason: "cannot open the file (\(String(cString: strerror(errno))))")
        }
        defer { fclose(file) }
        let limit = 4 << 20
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count > 0 { bytes += chunk[..<count] }
            if bytes.count > limit { throw unreadable(path, reason: "the file is larger than 4 MiB") }
            if count < chunk.count {
                if ferror(file) != 0 { throw unreadable(path, reason: "reading failed") }
                break
            }
        }
        return bytes
    }

    private static func unreadable(_ path: String, reason: String) -> FormularyError {
        FormularyError([Diagnostic(RegistryDiagnostic.unreadableFile(path, reason: reason),
                                   at: SourceLocation(file: path, line: 1, column: 1), sourceLine: "")])
    }
}
