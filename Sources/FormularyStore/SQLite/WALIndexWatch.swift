#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells, without a system call, whether a database in WAL mode may have changed: it maps
/// the first bytes of the database's wal-index (the `-shm` file) and reads its header.
///
/// Every commit rewrites that header before it returns (the frame count grows, or a WAL
/// restarted from its start gets new salts, and the header's checksum changes with them),
/// so a header read equal to one read before means no commit ended between the two reads.
/// The layout is SQLite's documented file format (<https://sqlite.org/walformat.html>: two
/// copies of a 48-byte header at offset 0), which every SQLite version sharing a database
/// must keep. A `PRAGMA data_version` tells the same but begins a read transaction: two
/// `fcntl` locks and an `fstat` per question, about 7% of `serve`'s CPU on `/v1/edit`.
///
/// Use it beside an open connection to the same database that has read from it: while a
/// connection has the wal-index open, no other can truncate or remove it (SQLite clears it
/// only under an exclusive lock that an open connection's shared lock refuses), so the
/// mapping stays valid; and a connection in WAL mode keeps its shared lock on the database
/// file, so no other can take the database out of WAL mode meanwhile.
public final class WALIndexWatch: @unchecked Sendable {
    /// The header's first copy: SQLite writes the second, then this one, so this one moved
    /// means the commit's header is written.
    public struct Stamp: Equatable, Sendable {
        fileprivate var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        public static func == (a: Stamp, b: Stamp) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2
                && a.words.3 == b.words.3 && a.words.4 == b.words.4 && a.words.5 == b.words.5
        }
    }

    /// Bytes mapped: both header copies and the checkpoint information after them.
    static let mappedBytes = 136
    private let base: UnsafeRawPointer

    /// A watch on the wal-index of the SQLite file at `databasePath`; nil when it has none
    /// (the database is not in WAL mode, or no connection has read it yet) or it cannot be
    /// mapped: then ask `PRAGMA data_version`.
    public init?(databasePath: String) {
        let fd = open(databasePath + "-shm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size >= Self.mappedBytes else { return nil }
        guard let mapped = mmap(nil, Self.mappedBytes, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            return nil
        }
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), Self.mappedBytes)
    }

    /// The header as it is now.
    public func stamp() -> Stamp {
        Stamp(words: (base.load(fromByteOffset: 0, as: UInt64.self), base.load(fromByteOffset: 8, as: UInt64.self),
                      base.load(fromByteOffset: 16, as: UInt64.self), base.load(fromByteOffset: 24, as: UInt64.self),
                      base.load(fromByteOffset: 32, as: UInt64.self), base.load(fromByteOffset: 40, as: UInt64.self)))
    }
}
