/// One read connection that sees the entries as they were when it began: what a validation
/// run's worker threads read, each through its own.
///
/// Get them from ``Store/beginEntrySnapshots(count:)`` inside the transaction that records the
/// run, so that they and the run's own bookkeeping see the same entries and imports. A
/// snapshot is used by one thread at a time; ``end()`` (or releasing it) ends its read
/// transaction.
public final class EntrySnapshot: @unchecked Sendable {
    let database: Database
    private let scan: Statement

    init(path: String) throws {
        var configuration = Database.Configuration()
        configuration.readOnly = true
        configuration.create = false
        database = try Database(path: path, configuration: configuration)
        scan = try database.makeStatement(
            "SELECT id, form_id, layout_id, vals, version FROM entries WHERE id > ? AND id <= ? ORDER BY id")
        try database.executeScript("BEGIN DEFERRED")
        // A read fixes the snapshot now, while the writer holds the lock.
        _ = try database.scalarInt64("SELECT max(id) FROM entries")
    }

    deinit { end() }

    /// Calls `body` with every entry whose id is in `afterID < id <= throughID`, in id order:
    /// a range scan of the rowid B-tree, SQLite's fastest read. The row is only valid during
    /// the call.
    @inlinable
    public func forEachEntry(afterID: Int64, throughID: Int64, _ body: (EntryRowView) throws -> Void) throws {
        try withScan { scan in
            scan.bind(afterID, at: 1)
            scan.bind(throughID, at: 2)
            defer { scan.reset() }
            try scan.forEachRow { try body(EntryRowView(row: $0)) }
        }
    }

    @usableFromInline
    func withScan<R>(_ body: (Statement) throws -> R) rethrows -> R { try body(scan) }

    /// Ends the read transaction; the snapshot cannot be read afterwards.
    public func end() {
        if database.isInTransaction { try? database.executeScript("COMMIT") }
    }
}

/// An entry as a validation worker reads it: its ids, version and encoded values
/// (``EntryValues``), straight from SQLite's buffers.
public struct EntryRowView {
    @usableFromInline let row: Row

    @inlinable init(row: Row) { self.row = row }

    @inlinable public var id: Int64 { row.int64(0) }
    @inlinable public var formID: Int64 { row.int64(1) }
    @inlinable public var layoutID: Int64 { row.int64(2) }
    @inlinable public var version: Int { row.int(4) }

    /// Calls `body` with the encoded values, valid only during the call.
    @inlinable
    public func withValues<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try row.withUnsafeBytes(at: 3, body)
    }
}

extension Store {
    /// Opens `count` snapshots of the entries. Call it inside the ``transaction(_:)`` that
    /// records a validation run: the write lock keeps imports out meanwhile, so every snapshot
    /// sees what the run's bookkeeping sees.
    public func beginEntrySnapshots(count: Int) throws -> [EntrySnapshot] {
        try (0..<count).map { _ in try EntrySnapshot(path: database.path) }
    }

    /// Runs `body` with automatic WAL checkpoints off, then checkpoints once.
    ///
    /// Long-lived snapshots keep a checkpoint from getting past them: with auto-checkpointing
    /// on, every commit past the WAL threshold would try again, and sync the files, for
    /// nothing. A validation run writes its batches inside this.
    public func withCheckpointsDeferred<T>(_ body: () throws -> T) throws -> T {
        let automatic = try database.scalarInt64("PRAGMA wal_autocheckpoint") ?? 1000
        try database.executeScript("PRAGMA wal_autocheckpoint = 0")
        defer {
            try? database.executeScript("PRAGMA wal_autocheckpoint = \(automatic)")
            try? database.executeScript("PRAGMA wal_checkpoint(PASSIVE)")
        }
        return try body()
    }

    /// Every layout's column names, by id: what a run's judges locate values by.
    public func entryLayouts() throws -> [Int64: [String]] {
        var layouts: [Int64: [String]] = [:]
        try database.cachedStatement("SELECT id, fields FROM entry_layouts").forEachRow { row in
            layouts[row.int64(0)] = try EntryValues.decodeNames(row.blob(1))
        }
        return layouts
    }
}
