import FormularyJSON

/// Writes the entries of one form, reusing its prepared statements for every row: the fast
/// path of `import`.
///
/// Get one from ``Store/entryWriter(form:actor:source:)`` inside ``Store/transaction(_:)`` so
/// that the whole import commits once (outside a transaction every row would commit, and sync,
/// on its own). A writer is one import: it records an `imports` row (time, actor, source), and
/// every entry it creates or changes points to it. It digests what it writes as it goes, and
/// ``recordAudit(details:)`` ends the import with its audit record.
package final class EntryWriter {
    package let store: Store
    package let formID: Int64
    package let form: String
    /// The `imports` row of this writer.
    package let importID: Int64
    /// When the import happened (UTC ISO 8601).
    package let timestamp: String
    package let actor: String
    package let source: String
    private let rows: any EntryRowWriting
    private var scratch: [UInt8] = []
    private let digest = DataDigests.ImportAccumulator()
    private let auditKey: AuditKey

    init(store: Store, form: String, formID: Int64, actor: String, source: String) throws {
        self.store = store
        self.form = form
        self.formID = formID
        self.timestamp = store.timestamp()
        self.actor = actor
        self.source = source
        auditKey = try store.auditKey()
        importID = try store.backend.insertImport(formID: formID, at: timestamp, actor: actor, source: source)
        rows = try store.backend.makeEntryRowWriter(formID: formID, importID: importID)
    }

    /// The layout id for these column names (see ``Store/layoutID(for:)``).
    package func layoutID(for fields: [String]) throws -> Int64 {
        try store.layoutID(for: fields)
    }

    /// Adds a new entry whose values (nil for absent) follow the layout's field order.
    @discardableResult
    /// `line` is where the entry's record starts in the import's file, when it came from one.
    package func add(layoutID: Int64, values: [String?], line: Int? = nil) throws -> Int64 {
        EntryValues.encode(values, into: &scratch)
        return try scratch.withUnsafeBytes { try add(layoutID: layoutID, encoded: $0, key: nil, line: line) }
    }

    /// Adds a new entry from already encoded values (``EntryValues``). A key that another entry
    /// of the form has is a UNIQUE violation; use ``upsert(key:layoutID:values:)`` for keyed imports.
    @discardableResult
    package func add(layoutID: Int64, encoded: UnsafeRawBufferPointer, key: String? = nil,
                    line: Int? = nil) throws -> Int64 {
        let sourceLine = line.map(Int64.init)
        let id = try rows.insert(key: key, layoutID: layoutID, values: encoded, line: sourceLine)
        digest.add(.init(id: id, version: 1, formID: formID, key: key, layoutID: layoutID, sourceLine: sourceLine),
                   vals: encoded)
        return id
    }

    /// Adds an entry with this key, or replaces the values of the form's entry that has it,
    /// keeping the previous values in the entry's history.
    @discardableResult
    /// `line` is where the record starts in the import's file, when it came from one.
    package func upsert(key: String, layoutID: Int64, values: [String?], line: Int? = nil) throws -> EntryWriteOutcome {
        EntryValues.encode(values, into: &scratch)
        return try scratch.withUnsafeBytes { try upsert(key: key, layoutID: layoutID, encoded: $0, line: line) }
    }

    /// ``upsert(key:layoutID:values:)`` from already encoded values.
    @discardableResult
    package func upsert(key: String, layoutID: Int64, encoded: UnsafeRawBufferPointer,
                       line: Int? = nil) throws -> EntryWriteOutcome {
        guard let (id, same, version) = try rows.find(key: key, layoutID: layoutID, values: encoded) else {
            return .inserted(id: try add(layoutID: layoutID, encoded: encoded, key: key, line: line))
        }
        if same { return .unchanged(id: id) }
        let sourceLine = line.map(Int64.init)
        try rows.replace(id: id, layoutID: layoutID, values: encoded, line: sourceLine)
        digest.add(.init(id: id, version: Int64(version + 1), formID: formID, key: key, layoutID: layoutID,
                         sourceLine: sourceLine),
                   vals: encoded)
        return .updated(id: id, version: version + 1)
    }

    /// Replaces the values of entry `id` (of this writer's form, now at `version`, with
    /// `key`) by `values`, keeping the previous values in the entry's history: a new entry
    /// version written by this import. `canonicalize` rewrites entries this way, whether
    /// they have a key or not.
    /// - Returns: the new version.
    @discardableResult
    package func replace(id: Int64, key: String?, version: Int, layoutID: Int64, values: [String?]) throws -> Int {
        EntryValues.encode(values, into: &scratch)
        try scratch.withUnsafeBytes { encoded in
            // No file line wrote it: its source is the writer's own (`canonicalize`).
            try rows.replace(id: id, layoutID: layoutID, values: encoded, line: nil)
            digest.add(.init(id: id, version: Int64(version + 1), formID: formID, key: key, layoutID: layoutID),
                       vals: encoded)
        }
        return version + 1
    }

    /// Ends the import with its audit record (action `import`, subject the form): `details`
    /// as the caller describes the import, plus the `imports` row id, the counts of entries
    /// added and updated, and the digest of every entry version written (docs/storage.md,
    /// "Data digests"). Call it once, last, inside the import's transaction. `canonicalize`
    /// passes `canonicalize: true` for its own action name (`canonicalize`); `audit verify`
    /// checks the digest of either.
    @discardableResult
    package func recordAudit(details: JSONObject = JSONObject(), canonicalize: Bool = false) throws -> AuditRecord {
        var layouts: [Int64: [UInt8]] = [:]
        for id in digest.layoutIDs { layouts[id] = EntryValues.encode(try store.layoutFields(id)) }
        let header = ImportHeader(id: importID, formID: formID, form: form, at: timestamp,
                                  actor: actor, source: source)
        var details = details
        details["import"] = .integer(importID)
        details["added"] = .integer(digest.createdCount)
        details["updated"] = .integer(digest.updatedCount)
        details["digest"] = .string(digest.digest(key: auditKey, header: header, layouts: layouts))
        return try store.appendAudit(actor: actor, action: canonicalize ? AuditAction.canonicalize : AuditAction.importEntries,
                                     subject: form,
                                     details: .object(details))
    }
}
