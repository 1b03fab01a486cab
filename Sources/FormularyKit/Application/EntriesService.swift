import FormularyJSON
import FormularyStore

/// Stored entries (`entries list`, `entries show`): their keys and values with secure ones
/// masked, and the latest verdict on each.
public struct EntriesService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// One entry as `entries list` lists it.
    public struct EntryRow: JSONObjectRepresentable, Sendable {
        /// The entry (its values are not shown in a listing).
        public var entry: StoredEntry
        /// Its key as it may be shown (`•••` when the key field is secure); nil without one.
        public var key: String?
        /// The latest run's verdict on it; nil before the first run that judged it.
        public var verdict: EntryRunVerdict?

        /// `{"id", "form", "key", "created_at", "updated_at", "verdict", "run"}` (nulls
        /// for a missing key and an entry never validated).
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("id", Int(entry.id))
            o.field("form", entry.form)
            if let k = key { o.field("key", k) } else { o.nullField("key") }
            o.field("created_at", entry.createdAt)
            o.field("updated_at", entry.updatedAt)
            if let v = verdict { o.field("verdict", v.verdict.rawValue) } else { o.nullField("verdict") }
            if let v = verdict { o.field("run", Int(v.run.id)) } else { o.nullField("run") }
        }
    }

    /// What `entries list` shows.
    public struct Listing: JSONRepresentable, Sendable {
        /// The entries, by id (failing ones in the order their run names them).
        public var rows: [EntryRow]
        /// How many there are in all, when the limit cut the list short; nil otherwise.
        public var total: Int?

        /// The rows as a JSON array (the total is not part of it).
        public func writeJSON(to writer: inout JSONWriter) {
            rows.writeJSON(to: &writer)
        }
    }

    /// The entries of `form` (of every form when nil), only those whose latest verdict is
    /// invalid when `failing`, at most `limit` of them (0 for all).
    public func list(form: String?, failing: Bool, limit: Int) throws -> Listing {
        let store = try workspace.store(.read)
        let keys = SecureKeys(workspace: workspace, store: store)
        var rows: [EntryRow] = []
        func add(_ stored: FormularyStore.StoredEntry) throws {
            let entry = StoredEntry(stored)
            rows.append(EntryRow(entry: entry, key: try keys.shownKey(of: entry),
                                 verdict: try store.latestVerdict(entryID: entry.id).map(EntryRunVerdict.init)))
        }
        if failing {
            var total = 0
            try forEachFailing(form: form, limit: limit) { rows.append($0) } total: { total = $0 }
            return Listing(rows: rows, total: limit > 0 && total > limit ? total : nil)
        }
        var after: Int64 = 0
        scan: while true {
            let page = try store.entries(form: form, afterID: after, limit: 1000)
            if page.isEmpty { break }
            for entry in page {
                after = entry.id
                try add(entry)
                if limit > 0 && rows.count >= limit { break scan }
            }
        }
        var total: Int?
        if limit > 0 && rows.count >= limit {
            let count = try store.entryCount(form: form)
            if count > rows.count { total = count }
        }
        return Listing(rows: rows, total: total)
    }

    /// The entries whose latest verdict is invalid (of `form` when given), by id, one at a
    /// time: the database sorts and merges the forms' newest runs, so memory stays flat
    /// however many fail. At most `limit` (0 for all) go to `body`; `total` gets how many
    /// there are in all (counted on, without their rows, past the limit).
    public func forEachFailing(form: String?, limit: Int, _ body: (EntryRow) throws -> Void,
                               total: (Int) -> Void = { _ in }) throws {
        let store = try workspace.store(.read)
        let keys = SecureKeys(workspace: workspace, store: store)
        var count = 0
        try store.read {
            try store.forEachFailingEntryID(form: form) { id in
                count += 1
                guard limit == 0 || count <= limit else { return true }
                guard let entry = try store.entry(id: id).map(StoredEntry.init) else { return true }
                try body(EntryRow(entry: entry, key: try keys.shownKey(of: entry),
                                  verdict: try store.latestVerdict(entryID: entry.id).map(EntryRunVerdict.init)))
                return true
            }
        }
        total(count)
    }

    /// One entry as `entries show` shows it.
    public struct EntryDetail: JSONObjectRepresentable, Sendable {
        /// The entry as stored (its raw values are in ``values``, masked).
        public var entry: StoredEntry
        /// Its key as it may be shown; nil without one.
        public var key: String?
        /// Each column and its value as it may be shown (`•••` for a secure field; nil
        /// when absent), in column order.
        public var values: [(field: String, value: String?)]
        /// The latest run's verdict on it; nil before the first run that judged it.
        public var verdict: EntryRunVerdict?

        /// `{"id", "form", "key", "version", "created_at", "updated_at", "values",
        /// "verdict", "run"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("id", Int(entry.id))
            o.field("form", entry.form)
            if let k = key { o.field("key", k) } else { o.nullField("key") }
            o.field("version", entry.version)
            o.field("created_at", entry.createdAt)
            o.field("updated_at", entry.updatedAt)
            o.object("values") { vo in
                for (field, value) in values {
                    if let value { vo.field(field, value) } else { vo.nullField(field) }
                }
            }
            if let v = verdict { o.field("verdict", v.verdict.rawValue) } else { o.nullField("verdict") }
            if let v = verdict { o.field("run", Int(v.run.id)) } else { o.nullField("run") }
        }
    }

    /// The entry `id`, its secure values masked, and its latest verdict.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when no entry has that id.
    public func show(id: Int64) throws -> EntryDetail {
        let store = try workspace.store(.read)
        guard let entry = try store.entry(id: id).map(StoredEntry.init) else { throw workspace.noSuchEntry(id) }
        let secure = try workspace.secureFields(store: store).of(form: entry.form)
        let key = secure.shownKey(of: entry)
        let verdict = try store.latestVerdict(entryID: id).map(EntryRunVerdict.init)
        let values = zip(entry.fields, entry.values).map { field, value in (field: field, value: secure.shown(value, field: field)) }
        return EntryDetail(entry: entry, key: key, values: values, verdict: verdict)
    }
}

extension Workspace {
    /// The failure for an entry id no entry has.
    func noSuchEntry(_ id: Int64) -> ServiceError {
        serviceError(for: StoreError.noSuchEntry(id), command: []) ?? ServiceError(.notFound, "no entry with id \(id)")
    }
}

/// Masks the keys of entries of many forms (``SecureFields``), loading the registries only
/// when an entry has a key: most listings have none.
final class SecureKeys {
    private let workspace: Workspace
    private let store: Store
    private var secureFields: SecureFields?

    init(workspace: Workspace, store: Store) {
        self.workspace = workspace
        self.store = store
    }

    func shownKey(of entry: StoredEntry) throws -> String? {
        guard let key = entry.key, !key.isEmpty else { return entry.key }
        if secureFields == nil { secureFields = try workspace.secureFields(store: store) }
        return try secureFields!.of(form: entry.form).shownKey(of: entry)
    }
}
