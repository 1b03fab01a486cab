extension Store {
    /// A watch on the wal-index of this store's SQLite file (see ``WALIndexWatch``), or nil
    /// on PostgreSQL, outside WAL mode, or before this connection has read the database. The
    /// watch keeps the connection open; use it from the thread that uses the store.
    package func walIndexWatch() -> WALIndexWatch? {
        guard let sqlite = backend as? SQLiteBackend else { return nil }
        return WALIndexWatch(connection: sqlite.database)
    }

    /// A number that changes whenever another connection commits to the database, or nil
    /// when the backend keeps none (PostgreSQL).
    ///
    /// On SQLite this is `PRAGMA data_version`: answered from the connection's own state,
    /// without reading a table, so a long-running reader (`serve`) can ask it on every
    /// request and read the audit head only when it moved. The store's own commits do not
    /// change it: ask it on a connection that only reads.
    package func dataVersion() throws -> Int64? {
        try backend.dataVersion()
    }

    /// The sequence number of the newest audit record (0 before the first), from the head
    /// the log keeps: one row, not the record itself.
    package func auditHeadSeq() throws -> Int64 {
        try backend.auditHead()?.seq ?? 0
    }

    /// The actions of the audit records after `seq`, each once: whether anything but
    /// imports and runs happened since a head seen before (`serve` reloads its registry only
    /// then).
    package func auditActions(after seq: Int64) throws -> Set<String> {
        Set(try backend.auditActions(after: seq))
    }
}
