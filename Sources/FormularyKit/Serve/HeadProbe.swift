import FormularyStore

/// One reading connection that tells the audit head, kept between requests.
///
/// On SQLite it asks `PRAGMA data_version` first (the connection's own counter: no table is
/// read) and reads the head only when another connection committed since it last did. The
/// order matters: the version is read before the head, so a commit between the two makes
/// the next version differ and the head is read again.
final class HeadProbe {
    private let workspace: Workspace
    private var opened = false
    private var seen: (version: Int64, seq: Int64)?

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
        guard let version = try store.dataVersion() else { return try store.auditHeadSeq() }
        if let seen, seen.version == version { return seen.seq }
        let seq = try store.auditHeadSeq()
        seen = (version, seq)
        return seq
    }
}
