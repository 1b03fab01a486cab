import FormularyJSON
import FormularyStore

/// The audit log: its records (`audit`), its verification with the data it vouches for
/// (`audit verify`), and its head (`audit head`).
public struct AuditService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// The records at or after `since` (a stored UTC time; all when nil) by `actor` (all
    /// when nil), oldest first; the first `limit` of them when given.
    public func records(since: String?, actor: String?, limit: Int? = nil) throws -> [AuditRecord] {
        try workspace.store(.read).auditRecords(since: since, actor: actor, limit: limit).map(AuditRecord.init)
    }

    /// What `audit verify` found: the database's integrity, its recorded migrations and
    /// schema, the hash chain (and, with `expectedHead`, that the log still holds that
    /// record), and the data and tokens against the digests the log holds.
    ///
    /// The database is opened without comparing `schema_migrations` with this formulary's
    /// migrations first, as other commands do: a row changed outside formulary is one of the
    /// problems the report names.
    public func verify(expectedHead: String?) throws -> AuditReport {
        AuditReport(try workspace.open(.read, checkMigrations: false).auditReport(expectedHead: expectedHead))
    }

    /// The newest record, which stands for the whole log before it.
    public struct Head: JSONObjectRepresentable, Sendable {
        /// Its sequence number (0 for an empty log).
        public var seq: Int64
        /// Its hash (64 zeros for an empty log).
        public var hash: String

        /// `{"seq", "hash"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("seq", Int(seq))
            o.field("hash", hash)
        }
    }

    /// The newest record's sequence number and hash.
    public func head() throws -> Head {
        let head = try workspace.store(.read).auditHead()
        return Head(seq: head.seq, hash: head.hash)
    }
}

extension AuditRecord: JSONObjectRepresentable {
    /// `{"seq", "at", "actor", "action", "subject", "details" (the JSON it holds), "prev_hash", "hash"}`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("seq", Int(seq))
        o.field("at", at)
        o.field("actor", actor)
        o.field("action", action)
        o.field("subject", subject)
        o.field("details", (try? JSONValue(parsing: details)) ?? .string(details))
        o.field("prev_hash", prevHash)
        o.field("hash", hash)
    }
}

extension AuditReport: JSONObjectRepresentable {
    /// `{"valid", "verified", "head_seq", "head_hash", "first_bad_seq"?, "problem"?,
    /// "problems", "notes", "covered"}`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("valid", isValid)
        o.field("verified", chain.verifiedCount)
        o.field("head_seq", Int(headSeq))
        o.field("head_hash", headHash)
        if let f = chain.failure {
            o.field("first_bad_seq", Int(f.seq))
            o.field("problem", f.description)
        }
        o.array("problems") { a in
            for p in problems {
                a.object { po in
                    po.field("area", p.area.rawValue)
                    po.field("message", p.message)
                    if let seq = p.seq { po.field("seq", Int(seq)) }
                }
            }
        }
        o.array("notes") { a in for n in notes { a.value(n) } }
        o.object("covered") { c in
            c.field("imports", covered.imports)
            c.field("entry_versions", covered.entryVersions)
            c.field("type_events", covered.typeEvents)
            c.field("form_events", covered.formEvents)
            c.field("runs", covered.runs)
            c.field("tokens", covered.tokens)
            c.field("migrations", covered.migrations)
        }
    }
}
