extension Store {
    /// The id under which entries of form `name` are filed, or nil when none ever were.
    public func formID(named name: String) throws -> Int64? {
        try database.scalarInt64("SELECT id FROM forms WHERE name = ?", [.text(name)])
    }

    /// The id of form `name`, created on first use (entries may belong to a folder form that
    /// is not in the database).
    public func ensureFormID(named name: String) throws -> Int64 {
        if let id = try formID(named: name) { return id }
        try database.execute("INSERT INTO forms (name) VALUES (?)", [.text(name)])
        return database.lastInsertRowID
    }

    /// Names of the forms that have entries filed under them (or had).
    public func formNamesWithEntries() throws -> [String] {
        try database.cachedStatement("SELECT name FROM forms ORDER BY name").map { $0.string(0) }
    }

    /// Whether any entry is filed under the form. Stops at the first one it finds, where
    /// ``entryCount(form:)`` reads the whole table (`entries` has no index on its form).
    public func hasEntries(form: String) throws -> Bool {
        try database.scalarInt64("""
            SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = (SELECT id FROM forms WHERE name = ?))
            """, [.text(form)]) == 1
    }

    /// The id of the layout (ordered column names), created on first use and cached.
    public func layoutID(for fields: [String]) throws -> Int64 {
        if let id = layoutIDs[fields] { return id }
        let encoded = EntryValues.encode(fields)
        let id: Int64
        if let existing = try database.scalarInt64("SELECT id FROM entry_layouts WHERE fields = ?",
                                                   [.blob(encoded)]) {
            id = existing
        } else {
            try database.execute("INSERT INTO entry_layouts (fields) VALUES (?)", [.blob(encoded)])
            id = database.lastInsertRowID
        }
        // Layouts are never deleted, so the cache is only wrong after a rollback of the
        // transaction that created the row: Store.transaction clears it on failure.
        layoutIDs[fields] = id
        layoutFieldsByID[id] = fields
        return id
    }

    /// The column names of a layout.
    public func layoutFields(_ id: Int64) throws -> [String] {
        if let fields = layoutFieldsByID[id] { return fields }
        let statement = try database.cachedStatement("SELECT fields FROM entry_layouts WHERE id = ?")
        try statement.bind([.integer(id)])
        guard let bytes = try statement.first({ $0.blob(0) }) else {
            throw StoreError.corrupt("entry layout \(id) is missing")
        }
        let fields = try EntryValues.decodeNames(bytes)
        layoutFieldsByID[id] = fields
        return fields
    }

    /// Forgets cached layout ids; ``Store/transaction(_:)`` does it when it rolls back. Call it
    /// after rolling back a transaction opened on ``database`` directly.
    public func clearLayoutCache() {
        layoutIDs.removeAll()
        layoutFieldsByID.removeAll()
    }

    /// A writer for one import into form `name` (the form id is created if needed): records
    /// the import (now, `actor`, `source` — a file name or `-`) and returns the writer.
    public func entryWriter(form name: String, actor: String = "unknown",
                            source: String = "-") throws -> EntryWriter {
        try EntryWriter(store: self, form: name, formID: ensureFormID(named: name), actor: actor,
                        source: source)
    }

    /// One entry, decoded.
    public func entry(id: Int64) throws -> StoredEntry? {
        let statement = try database.cachedStatement("\(Self.entrySelect) WHERE e.id = ?")
        try statement.bind([.integer(id)])
        var result: StoredEntry?
        try statement.forEachRow { result = try decodeEntry($0) }
        return result
    }

    /// Entries in id order, optionally of one form, after `afterID`, at most `limit`.
    public func entries(form: String? = nil, afterID: Int64 = 0, limit: Int? = nil) throws -> [StoredEntry] {
        let statement = try database.cachedStatement("""
            \(Self.entrySelect) WHERE (?1 IS NULL OR f.name = ?1) AND e.id > ?2 ORDER BY e.id LIMIT ?3
            """)
        try statement.bind([.text(form), .integer(afterID), .integer(Int64(limit ?? -1))])
        var result: [StoredEntry] = []
        try statement.forEachRow { result.append(try decodeEntry($0)) }
        return result
    }

    /// Number of entries, optionally of one form.
    public func entryCount(form: String? = nil) throws -> Int {
        Int(try database.scalarInt64("""
            SELECT count(*) FROM entries AS e JOIN forms AS f ON f.id = e.form_id WHERE ?1 IS NULL OR f.name = ?1
            """, [.text(form)]) ?? 0)
    }

    /// The earlier values of an entry, oldest first (its current values are in ``entry(id:)``).
    public func entryHistory(id: Int64) throws -> [StoredEntryVersion] {
        let statement = try database.cachedStatement("""
            SELECT v.entry_id, v.version, v.layout_id, v.vals, w.at, r.at FROM entry_versions AS v
            JOIN imports AS w ON w.id = v.written_in JOIN imports AS r ON r.id = v.replaced_in
            WHERE v.entry_id = ? ORDER BY v.version
            """)
        try statement.bind([.integer(id)])
        var result: [StoredEntryVersion] = []
        try statement.forEachRow { row in
            let fields = try layoutFields(row.int64(2))
            result.append(StoredEntryVersion(entryID: row.int64(0), version: row.int(1), fields: fields,
                                             values: try Self.values(row.blob(3), count: fields.count),
                                             validFrom: row.string(4), replacedAt: row.string(5)))
        }
        return result
    }

    /// Calls `body` with each entry's id, layout id and encoded values, without copying the
    /// values: the fast path for batch validation. Entries of `formID` with `afterID < id <=
    /// throughID` (all when nil), in id order; stops early when `body` returns false.
    public func forEachEncodedEntry(formID: Int64, afterID: Int64 = 0, throughID: Int64? = nil,
                                    _ body: (_ id: Int64, _ layoutID: Int64,
                                             _ values: UnsafeRawBufferPointer) throws -> Bool) throws {
        let statement = try database.cachedStatement("""
            SELECT id, layout_id, vals FROM entries WHERE form_id = ? AND id > ? AND id <= ? ORDER BY id
            """)
        try statement.bind([.integer(formID), .integer(afterID), .integer(throughID ?? Int64.max)])
        defer { statement.reset() }
        let row = Row(handle: statement.handle)
        while try statement.step() {
            let more = try row.withUnsafeBytes(at: 2) { try body(row.int64(0), row.int64(1), $0) }
            if !more { break }
        }
    }

    // MARK: Private

    static let entrySelect = """
        SELECT e.id, f.name, e.key, e.layout_id, e.vals, e.version, c.at, coalesce(u.at, c.at),
               e.created_in, e.updated_in
        FROM entries AS e JOIN forms AS f ON f.id = e.form_id
        JOIN imports AS c ON c.id = e.created_in LEFT JOIN imports AS u ON u.id = e.updated_in
        """

    private func decodeEntry(_ row: Row) throws -> StoredEntry {
        let fields = try layoutFields(row.int64(3))
        return StoredEntry(id: row.int64(0), form: row.string(1), key: row.optionalString(2),
                           fields: fields, values: try Self.values(row.blob(4), count: fields.count),
                           version: row.int(5), createdAt: row.string(6), updatedAt: row.string(7),
                           createdIn: row.int64(8), updatedIn: row.optionalInt64(9))
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
