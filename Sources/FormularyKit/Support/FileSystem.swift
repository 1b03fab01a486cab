#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to read a file or folder, naming the path and what the system said.
package struct FileError: Error, Sendable, CustomStringConvertible {
    /// The file or folder as named.
    package var path: String
    /// What the system said.
    package var reason: String
    /// `PATH: reason`.
    package var description: String { "\(path): \(reason)" }
}

/// The little file-system access Formulary needs, on POSIX calls directly: it keeps
/// start-up cheap (a one-value `check` is a whole process) and makes the symlink
/// policy explicit.
package enum FileSystem {
    /// Reads a whole file. `limit` guards against reading something absurd into memory.
    package static func read(_ path: String, limit: Int = 64 << 20) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, reason: errnoText()) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw FileError(path: path, reason: errnoText()) }
        if (st.st_mode & S_IFMT) == S_IFDIR { throw FileError(path: path, reason: "is a folder, not a file") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(max(0, st.st_size)))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, reason: errnoText())
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > limit {
                throw FileError(path: path, reason: "is larger than \(limit >> 20) MiB")
            }
        }
        return bytes
    }

    /// The first `count` bytes of a file (fewer when it is shorter): enough to recognise
    /// its format without reading it whole.
    package static func prefix(of path: String, count: Int) throws(FileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError(path: path, reason: errnoText()) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(path: path, reason: errnoText())
            }
            if n == 0 { break }
            filled += n
        }
        return Array(bytes.prefix(filled))
    }

    /// The size of the file at `path` in bytes, or nil when it cannot be looked at. By
    /// `stat`, without opening it: closing a descriptor of a database file would drop the
    /// SQLite locks this process holds on it.
    package static func size(of path: String) -> Int64? {
        var status = stat()
        return stat(path, &status) == 0 ? Int64(status.st_size) : nil
    }

    /// The regular files directly inside `folder` whose names end in one of `extensions`,
    /// sorted by name. A symbolic link is followed only when it stays inside the folder:
    /// plugins cannot be smuggled in from elsewhere through a link.
    package static func files(in folder: String, extensions: [String]) throws(FileError) -> [String] {
        guard let dir = opendir(folder) else { throw FileError(path: folder, reason: errnoText()) }
        defer { closedir(dir) }
        guard let realFolder = realPath(folder) else { throw FileError(path: folder, reason: errnoText()) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix("."), extensions.contains(where: { name.hasSuffix($0) }) else { continue }
            names.append(name)
        }
        var result: [String] = []
        for name in names.sorted() {
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            var st = stat()
            guard lstat(path, &st) == 0 else { throw FileError(path: path, reason: errnoText()) }
            if (st.st_mode & S_IFMT) == S_IFLNK {
                guard let target = realPath(path) else { throw FileError(path: path, reason: unresolvedLinkReason()) }
                guard target.hasPrefix(realFolder + "/") else {
                    throw FileError(path: path, reason: "is a symbolic link that leads out of its plugin folder; copy the file in instead")
                }
            }
            guard stat(path, &st) == 0 else { throw FileError(path: path, reason: errnoText()) }
            guard (st.st_mode & S_IFMT) == S_IFREG else { continue }
            result.append(path)
        }
        return result
    }

    /// Whether `path` names a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// Why a symbolic link could not be followed, from the `errno` of the failed `realpath`:
    /// a loop and a missing target each get their own words, since neither leads anywhere,
    /// let alone out of the folder.
    static func unresolvedLinkReason() -> String {
        switch errno {
        case ELOOP:
            "is a symbolic link that loops: following it leads back to a link already passed, never to a file; "
                + "remove the link, or point it at a plugin file in the folder"
        case ENOENT:
            "is a symbolic link to a file that does not exist; remove the link, or point it at a plugin file in the folder"
        default:
            "is a symbolic link that cannot be followed (\(errnoText()))"
        }
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
