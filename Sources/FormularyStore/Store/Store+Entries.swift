/// Forms, layouts and entries: what imports write and what `entries` reads.
extension Store {
    /// The id under which entries of form `name` are filed, or nil when none ever were.
    package func formID(named name: String) throws -> Int64? {
        try backend.formID(named: name)
    }

    /// The id of form `name`, created on first use (entries may belong to a folder form that
    /// is not in the database).
    package func ensureFormID(named name: String) throws -> Int64 {
        if let id = try backend.formID(named: name) { return id }
        return try backend.insertForm(named: name)
    }

    /// Names of the forms that have entries filed under them (or had).
    package func formNamesWithEntries() throws -> [String] {
        try backend.formNames()
    }

    /// Whether any entry is filed under the form. Stops at the first one it finds, where
    /// ``entryCount(form:)`` reads the whole table.
    package func hasEntries(form: String) throws -> Bool {
        guard let id = try backend.formID(named: form) else { return false }
        return try backend.hasEntries(formID: id)
    }

    /// The id of the layout (ordered column names), created on first use and cached.
    package func layoutID(for fields: [String]) throws -> Int64 {
        if let id = layoutIDs[fields] { return id }
        let encoded = EntryValues.encode(fields)
        let id = try backend.layoutID(encodedFields: encoded) ?? backend.insertLayout(encodedFields: encoded)
        // Layouts are never deleted, so the cache is only wrong after a rollback of the
        // transaction that created the row: Store.transaction clears it on failure.
        layoutIDs[fields] = id
        layoutFieldsByID[id] = fields
        return id
    }

    /// The column names of a layout.
    package func layoutFields(_ id: Int64) throws -> [String] {
        if let fields = layoutFieldsByID[id] { return fields }
        guard let bytes = try backend.encodedLayout(id: id) else {
            throw StoreError.corrupt("entry layout \(id) is missing")
        }
        let fields = try EntryValues.decodeNames(bytes)
        layoutFieldsByID[id] = fields
        return fields
    }

    /// Forgets cached layout ids; ``Store/transaction(_:)`` does it when it rolls back.
    package func clearLayoutCache() {
        layoutIDs.removeAll()
        layoutFieldsByID.removeAll()
    }

    /// A writer for one import into form `name` (the form id is created if needed): records
    /// the import (now, `actor`, `source` — a file name or `-`) and returns the writer.
    package func entryWriter(form name: String, actor: String = "unknown",
                            source: String = "-") throws -> EntryWriter {
        try EntryWriter(store: self, form: name, formID: ensureFormID(named: name), actor: actor,
                        source: source)
    }

    /// One entry, decoded.
    package func entry(id: Int64) throws -> StoredEntry? {
        try backend.entry(id: id).map(decode)
    }

    /// Entries in id order, optionally of one form, after `afterID`, at most `limit`.
    package func entries(form: String? = nil, afterID: Int64 = 0, limit: Int? = nil) throws -> [StoredEntry] {
        try backend.entries(form: form, afterID: afterID, limit: limit).map(decode)
    }

    /// Calls `body` with every entry of `form`, in id order, read `pageSize` at a time (so
    /// that a large form is never in memory whole).
    package func forEachEntry(form: String, pageSize: Int = 1000, _ body: (StoredEntry) throws -> Void) throws {
        var after: Int64 = 0
        while true {
            let page = try entries(form: form, afterID: after, limit: pageSize)
            guard let last = page.last else { return }
            after = last.id
            for entry in page { try body(entry) }
        }
    }

    /// Number of entries, optionally of one form.
    package func entryCount(form: String? = nil) throws -> Int {
        try backend.entryCount(form: form)
    }

    /// The earlier values of an entry, oldest first (its current values are in ``entry(id:)``).
    package func entryHistory(id: Int64) throws -> [StoredEntryVersion] {
        try backend.earlierVersions(entryID: id).map { v in
            let fields = try layoutFields(v.layoutID)
            return StoredEntryVersion(entryID: v.entryID, version: v.version, fields: fields,
                                      values: try Self.values(v.values, count: fields.count),
                                      validFrom: v.writtenAt, replacedAt: v.replacedAt)
        }
    }

    /// Whether any entry of the form was imported with a key (`import --key`).
    package func hasKeyedEntries(formID: Int64) throws -> Bool {
        try backend.hasKeyedEntries(formID: formID)
    }

    /// The keys of those of `ids` that have one, by id. Ids without a key, or unknown, are
    /// left out.
    package func entryKeys(_ ids: some Sequence<Int64>) throws -> [Int64: String] {
        try backend.entryKeys(Array(ids))
    }

    /// The lowest and highest entry ids (0, 0 without entries): the id space a run goes through.
    package func entryIDBounds() throws -> (firstID: Int64, lastID: Int64) {
        try backend.entryIDBounds()
    }

    // MARK: Private

    private func decode(_ record: EntryRecord) throws -> StoredEntry {
        let fields = try layoutFields(record.layoutID)
        return StoredEntry(id: record.id, form: record.form, key: record.key, fields: fields,
                           values: try Self.values(record.values, count: fields.count), version: record.version,
                           createdAt: record.createdAt, updatedAt: record.updatedAt,
                           createdIn: record.createdIn, updatedIn: record.updatedIn)
    }

    /// Decoded values padded with absent slots to the layout's length.
    static func values(_ bytes: [UInt8], count: Int) throws -> [String?] {
        var values = try EntryValues.decode(bytes)
        guard values.count <= count else {
            throw StoreError.corrupt("an entry has \(values.count) values for \(count) columns")
        }
        values.append(contentsOf: repeatElement(nil, count: count - values.count))
        return values
    }
}

extension Store {
    /// Calls `body` with each entry's id, layout id and encoded values, without copying the
    /// values. Entries of `formID` with `afterID < id <= throughID` (all when nil), in id
    /// order, as of now; stops early when `body` returns false.
    package func forEachEncodedEntry(formID: Int64, afterID: Int64 = 0, throughID: Int64? = nil,
                                    _ body: (_ id: Int64, _ layoutID: Int64,
                                             _ values: UnsafeRawBufferPointer) throws -> Bool) throws {
        struct Stop: Error {}
        guard let scan = try backend.beginEntryScans(count: 1).first else { return }
        defer { scan.end() }
        do {
            try scan.forEachEntry(afterID: afterID, throughID: throughID ?? Int64.max) { row in
                guard row.formID == formID else { return }
                if try !body(row.id, row.layoutID, row.values) { throw Stop() }
            }
        } catch is Stop {}
    }
}

/// Who wrote one version of an entry: the import (or `canonicalize`) and when.
package struct EntryVersionOrigin: Sendable, Hashable {
    /// The entry version (1 for the values it was created with).
    package var version: Int
    /// The `imports` row that wrote it.
    package var importID: Int64
    /// When it was written (UTC ISO 8601).
    package var at: String
    /// Who wrote it.
    package var actor: String
    /// The import's source: a file name, `-` for standard input, or `canonicalize`.
    package var source: String
}

extension Store {
    /// Where each version of entry `id` came from, oldest first (none for an unknown id).
    package func entryVersionOrigins(id: Int64) throws -> [EntryVersionOrigin] {
        guard let entry = try backend.entry(id: id) else { return [] }
        let written = try backend.earlierVersions(entryID: id).map { ($0.version, $0.writtenIn) }
            + [(entry.version, entry.updatedIn ?? entry.createdIn)]
        let headers = try backend.importHeaders()
        return written.map { version, importID in
            let header = headers[importID]
            return EntryVersionOrigin(version: version, importID: importID, at: header?.at ?? "?",
                                      actor: header?.actor ?? "?", source: header?.source ?? "?")
        }
    }
}
