import FormularyStore

/// One reading connection that tells the audit head, kept between requests.
///
/// It reads the head only when the database may have changed since it last did. On an
/// SQLite file in WAL mode it knows that without a system call, from the wal-index header
/// (``WALIndexWatch``); otherwise it asks `PRAGMA data_version` (the connection's own
/// counter, which begins a read transaction but reads no table); on PostgreSQL it reads the
/// head each time. The order matters: the stamp or version is read before the head, so a
/// commit between the two makes the next one differ and the head is read again.
final class HeadProbe {
    private let workspace: Workspace
    private var opened = false
    /// Looked for once, after the first read opened the database's wal-index.
    private var watch: WALIndexWatch?
    private var lookedForWatch = false
    private var seenStamp: WALIndexWatch.Stamp?
    private var seen: (version: Int64, seq: Int64)?
    private var seenSeq: Int64 = -1

    init(settings: WorkspaceSettings) {
        workspace = Workspace(settings: settings)
    }

    /// The newest audit record's sequence number, or -1 without a database.
    func head() throws -> Int64 {
        // Until the database exists it is looked for on every request; once opened, the
        // connection is kept (as the registry's own reads keep theirs).
        guard opened || workspace.databaseExists else { return -1 }
        let store = try workspace.store(.read)
        opened = true
        if let watch {
            let stamp = watch.stamp()
            if stamp == seenStamp { return seenSeq }
            seenSeq = try store.auditHeadSeq()
            seenStamp = stamp
            return seenSeq
        }
        guard let version = try store.dataVersion() else { return try store.auditHeadSeq() }
        if let seen, seen.version == version { return seen.seq }
        let seq = try store.auditHeadSeq()
        seen = (version, seq)
        if !lookedForWatch {
            // The read above opened the wal-index (in WAL mode): from the next request on,
            // its header answers. The stamp is taken after this head was read, so the first
            // comparison reads the head again: never too new a stamp for a seen head.
            lookedForWatch = true
            watch = store.walIndexWatch()
        }
        return seq
    }
}
