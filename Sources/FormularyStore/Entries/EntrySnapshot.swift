import CSQLite

/// A fixed view of the entries for one validation worker thread: it sees them as they were
/// when it began.
///
/// Get them from ``Store/beginEntrySnapshots(count:)`` inside the transaction that records the
/// run, so that they and the run's own bookkeeping see the same entries and imports. A
/// snapshot is used by one thread at a time; ``end()`` (or releasing it) ends it.
package final class EntrySnapshot: @unchecked Sendable {
    let scan: any EntryScanning

    init(_ scan: any EntryScanning) { self.scan = scan }

    /// Calls `body` with every entry whose id is in `afterID < id <= throughID`, in id order.
    /// The row's values are only valid during the call.
    package func forEachEntry(afterID: Int64, throughID: Int64, _ body: (EntryRowView) throws -> Void) throws {
        try scan.forEachEntry(afterID: afterID, throughID: throughID, body)
    }

    /// Ends the snapshot; it cannot be read afterwards.
    package func end() { scan.end() }
}

/// An entry as a validation worker reads it: its ids, version and encoded values
/// (``EntryValues``), straight from the storage's buffers.
@usableFromInline package struct EntryRowView {
    @usableFromInline package let id: Int64
    @usableFromInline package let formID: Int64
    @usableFromInline package let layoutID: Int64
    /// The encoded values; valid only during the call that received the row.
    @usableFromInline package let values: UnsafeRawBufferPointer
    @usableFromInline let storedVersion: Int
    /// A SQLite statement on this row whose column `versionColumn` is the version: read only
    /// when asked (a worker asks for failing entries only), nil when `storedVersion` holds it.
    @usableFromInline let statement: OpaquePointer?
    @usableFromInline let versionColumn: Int32

    /// The entry's version (as ``EntryRecord/version``); only during the call that received
    /// the row.
    @inlinable package var version: Int {
        guard let statement else { return storedVersion }
        return Int(sqlite3_column_int64(statement, versionColumn))
    }

    @inlinable
    package init(id: Int64, formID: Int64, layoutID: Int64, version: Int, values: UnsafeRawBufferPointer) {
        self.id = id
        self.formID = formID
        self.layoutID = layoutID
        self.values = values
        storedVersion = version
        statement = nil
        versionColumn = 0
    }

    /// A row whose version column `versionColumn` of `statement` gives when asked.
    @inlinable
    init(id: Int64, formID: Int64, layoutID: Int64, values: UnsafeRawBufferPointer, statement: OpaquePointer,
         versionColumn: Int32) {
        self.id = id
        self.formID = formID
        self.layoutID = layoutID
        self.values = values
        storedVersion = 0
        self.statement = statement
        self.versionColumn = versionColumn
    }

    /// Calls `body` with the encoded values.
    @inlinable
    package func withValues<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(values)
    }
}

extension Store {
    /// Opens `count` snapshots of the entries. Call it inside the ``transaction(_:)`` that
    /// records a validation run: the write lock keeps imports out meanwhile, so every snapshot
    /// sees what the run's bookkeeping sees.
    package func beginEntrySnapshots(count: Int) throws -> [EntrySnapshot] {
        try backend.beginEntryScans(count: count).map(EntrySnapshot.init)
    }

    /// Runs `body` while snapshots stay open for a long time (a validation run writes its
    /// batches inside it): the storage may put off its maintenance until the end.
    package func withCheckpointsDeferred<T>(_ body: () throws -> T) throws -> T {
        try backend.withLongReaders(body)
    }

    /// Every layout's column names, by id: what a run's judges locate values by.
    package func entryLayouts() throws -> [Int64: [String]] {
        try backend.encodedLayouts().mapValues { try EntryValues.decodeNames($0) }
    }
}
