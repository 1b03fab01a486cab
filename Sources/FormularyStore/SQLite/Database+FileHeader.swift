#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSQLite

extension Database {
    /// The first `count` bytes of the file at `path` (fewer when it is shorter, none when it
    /// is empty), read through SQLite's own file handle: enough to tell whether it is an
    /// SQLite database before a connection reads it.
    ///
    /// Never `open` and `close` a database file beside SQLite: POSIX `fcntl` locks belong to
    /// the process, and closing any descriptor of the file drops every lock the process holds
    /// on it — those of connections already open to it included (a `serve` process opens
    /// connections while others are open). SQLite's own files share its lock bookkeeping: a
    /// connection closed while another holds locks leaves its descriptor to be closed later.
    ///
    /// - Throws: a ``DatabaseError`` with SQLite's code and, for a file that cannot be opened,
    ///   the system's reason (`Permission denied`…) as its message.
    package static func fileHeader(path: String, count: Int) throws(DatabaseError) -> [UInt8] {
        var handle: OpaquePointer?
        // Read-only and without a statement: nothing is read but these bytes, nothing written.
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        defer { sqlite3_close_v2(handle) }
        guard code == SQLITE_OK, let handle else {
            let system = handle.map { sqlite3_system_errno($0) } ?? 0
            throw DatabaseError(extendedCode: code, message: system != 0 ? String(cString: strerror(system)) : nil)
        }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods,
              let size = methods.pointee.xFileSize, let read = methods.pointee.xRead else {
            throw DatabaseError(extendedCode: SQLITE_CANTOPEN)
        }
        var length: sqlite3_int64 = 0
        let sized = size(file, &length)
        guard sized == SQLITE_OK else { throw DatabaseError(extendedCode: sized) }
        let wanted = Int(min(Int64(count), max(0, length)))
        guard wanted > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: wanted)
        let got = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, Int32(wanted), 0) }
        guard got == SQLITE_OK else { throw DatabaseError(extendedCode: got) }
        return bytes
    }
}
