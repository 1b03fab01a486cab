import CSQLite

/// Tells, without a system call, whether a database in WAL mode may have changed: it reads
/// the header of the database's wal-index (the `-shm` file) through the mapping SQLite's own
/// connection made of it.
///
/// Every commit rewrites that header before it returns (the frame count grows, or a WAL
/// restarted from its start gets new salts, and the header's checksum changes with them),
/// so a header read equal to one read before means no commit ended between the two reads.
/// The layout is SQLite's documented file format (<https://sqlite.org/walformat.html>: two
/// copies of a 48-byte header at offset 0), which every SQLite version sharing a database
/// must keep. A `PRAGMA data_version` tells the same but begins a read transaction: two
/// `fcntl` locks and an `fstat` per question, about 7% of `serve`'s CPU on `/v1/edit`.
///
/// The watch never opens the `-shm` file itself. POSIX `fcntl` locks belong to the process,
/// and closing any descriptor of a file drops every lock the process holds on it: a watch
/// that opened, mapped and closed `-shm` dropped SQLite's lock on the wal-index, so another
/// process believed it was alone, reset the wal-index and removed `-wal` and `-shm` under the
/// server (SQLite's "How To Corrupt An SQLite Database File", §2.2). Instead the watch asks
/// the connection's file for the region SQLite mapped (`xShmMap` of the VFS, with no
/// extension): the same memory SQLite reads, valid while the connection is open and in WAL
/// mode — which the watch guarantees by holding the connection.
package final class WALIndexWatch: @unchecked Sendable {
    /// The header's first copy: SQLite writes the second, then this one, so this one moved
    /// means the commit's header is written.
    package struct Stamp: Equatable, Sendable {
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        package static func == (a: Stamp, b: Stamp) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
                && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
        }
    }

    /// The size of a wal-index region as SQLite maps it (`WALINDEX_PGSZ`); the header is in
    /// the first.
    static let regionBytes: Int32 = 32_768
    private let base: UnsafeRawPointer
    /// The connection whose mapping `base` points into: kept open as long as the watch.
    private let connection: Database

    /// A watch on the wal-index `connection` has mapped; nil when it has none (the database
    /// is not in WAL mode, or the connection has not read it yet): then ask
    /// `PRAGMA data_version`. Call it on the thread that uses the connection.
    init?(connection: Database) {
        // Outside WAL mode asking for the region would make SQLite open a `-shm` the
        // database does not use.
        guard (try? connection.scalarString("PRAGMA journal_mode"))?.lowercased() == "wal" else { return nil }
        var file: UnsafeMutablePointer<sqlite3_file>?
        guard sqlite3_file_control(connection.handle, "main", SQLITE_FCNTL_FILE_POINTER, &file) == SQLITE_OK,
              let file, let methods = file.pointee.pMethods, methods.pointee.iVersion >= 2,
              let map = methods.pointee.xShmMap else { return nil }
        var region: UnsafeMutableRawPointer?
        // bExtend 0: the region as it is, nil when the wal-index is not that large yet.
        guard map(file, 0, Self.regionBytes, 0, &region) == SQLITE_OK, let region else { return nil }
        base = UnsafeRawPointer(region)
        self.connection = connection
    }

    /// The header as it is now.
    package func stamp() -> Stamp {
        Stamp(words: (base.load(fromByteOffset: 0, as: UInt64.self), base.load(fromByteOffset: 8, as: UInt64.self),
                      base.load(fromByteOffset: 16, as: UInt64.self), base.load(fromByteOffset: 24, as: UInt64.self),
                      base.load(fromByteOffset: 32, as: UInt64.self), base.load(fromByteOffset: 40, as: UInt64.self)))
    }
}
