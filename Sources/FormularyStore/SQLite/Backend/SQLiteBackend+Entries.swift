/// Forms, layouts, imports and entries (tables `forms`, `entry_layouts`, `imports`,
/// `entries`, `entry_versions`).
extension SQLiteBackend {
    package func formID(named name: String) throws -> Int64? {
        try database.scalarInt64("SELECT id FROM forms WHERE name = ?", [.text(name)])
    }

    package func insertForm(named name: String) throws -> Int64 {
        try database.execute("INSERT INTO forms (name) VALUES (?)", [.text(name)])
        return database.lastInsertRowID
    }

    package func formNames() throws -> [String] {
        try database.cachedStatement("SELECT name FROM forms ORDER BY name").map { $0.string(0) }
    }

    package func hasEntries(formID: Int64) throws -> Bool {
        // Stops at the first entry: `entries` has no index on its form.
        try database.scalarInt64("SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = ?)", [.integer(formID)]) == 1
    }

    package func layoutID(encodedFields: [UInt8]) throws -> Int64? {
        try database.scalarInt64("SELECT id FROM entry_layouts WHERE fields = ?", [.blob(encodedFields)])
    }

    package func insertLayout(encodedFields: [UInt8]) throws -> Int64 {
        try database.execute("INSERT INTO entry_layouts (fields) VALUES (?)", [.blob(encodedFields)])
        return database.lastInsertRowID
    }

    package func encodedLayout(id: Int64) throws -> [UInt8]? {
        let statement = try database.cachedStatement("SELECT fields FROM entry_layouts WHERE id = ?")
        try statement.bind([.integer(id)])
        return try statement.first { $0.blob(0) }
    }

    package func encodedLayouts() throws -> [Int64: [UInt8]] {
        var out: [Int64: [UInt8]] = [:]
        try database.cachedStatement("SELECT id, fields FROM entry_layouts").forEachRow { row in
            out[row.int64(0)] = row.blob(1)
        }
        return out
    }

    package func insertImport(formID: Int64, at: String, actor: String, source: String) throws -> Int64 {
        try database.execute("INSERT INTO imports (form_id, at, actor, source) VALUES (?, ?, ?, ?)",
                             [.integer(formID), .text(at), .text(actor), .text(source)])
        return database.lastInsertRowID
    }

    package func importHeaders() throws -> [Int64: ImportHeader] {
        var out: [Int64: ImportHeader] = [:]
        try database.cachedStatement("""
            SELECT i.id, i.form_id, coalesce(f.name, ''), i.at, i.actor, i.source
            FROM imports AS i LEFT JOIN forms AS f ON f.id = i.form_id ORDER BY i.id
            """).forEachRow { row in
            out[row.int64(0)] = ImportHeader(id: row.int64(0), formID: row.int64(1), form: row.string(2),
                                             at: row.string(3), actor: row.string(4), source: row.string(5))
        }
        return out
    }

    package func lastImportID() throws -> Int64 {
        try database.scalarInt64("SELECT coalesce(max(id), 0) FROM imports") ?? 0
    }

    package func makeEntryRowWriter(formID: Int64, importID: Int64) throws -> any EntryRowWriting {
        try SQLiteEntryRowWriter(database: database, formID: formID, importID: importID)
    }

    // MARK: Reading entries

    package func entry(id: Int64) throws -> EntryRecord? {
        let statement = try database.cachedStatement("\(Self.entrySelect) WHERE e.id = ?")
        try statement.bind([.integer(id)])
        return try statement.first(Self.entryRecord(from:))
    }

    package func entries(form: String?, afterID: Int64, limit: Int?) throws -> [EntryRecord] {
        let statement = try database.cachedStatement("""
            \(Self.entrySelect) WHERE (?1 IS NULL OR f.name = ?1) AND e.id > ?2 ORDER BY e.id LIMIT ?3
            """)
        try statement.bind([.text(form), .integer(afterID), .integer(Int64(limit ?? -1))])
        return try statement.map(Self.entryRecord(from:))
    }

    package func entryCount(form: String?) throws -> Int {
        Int(try database.scalarInt64("""
            SELECT count(*) FROM entries AS e JOIN forms AS f ON f.id = e.form_id WHERE ?1 IS NULL OR f.name = ?1
            """, [.text(form)]) ?? 0)
    }

    package func earlierVersions(entryID: Int64) throws -> [EarlierVersionRecord] {
        let statement = try database.cachedStatement("""
            SELECT v.entry_id, v.version, v.layout_id, v.vals, v.written_in, v.replaced_in, w.at, r.at
            FROM entry_versions AS v
            JOIN imports AS w ON w.id = v.written_in JOIN imports AS r ON r.id = v.replaced_in
            WHERE v.entry_id = ? ORDER BY v.version
            """)
        try statement.bind([.integer(entryID)])
        return try statement.map { row in
            EarlierVersionRecord(entryID: row.int64(0), version: row.int(1), layoutID: row.int64(2),
                                 values: row.blob(3), writtenIn: row.int64(4), replacedIn: row.int64(5),
                                 writtenAt: row.string(6), replacedAt: row.string(7))
        }
    }

    package func entryKeys(_ ids: [Int64]) throws -> [Int64: String] {
        let statement = try database.cachedStatement("SELECT key FROM entries WHERE id = ? AND key IS NOT NULL")
        var keys: [Int64: String] = [:]
        for id in ids {
            try statement.bind([.integer(id)])
            if let key = try statement.first({ $0.string(0) }) { keys[id] = key }
        }
        return keys
    }

    package func hasKeyedEntries(formID: Int64) throws -> Bool {
        // The partial index entries_by_key answers this without touching the entries.
        try database.scalarInt64(
            "SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = ? AND key IS NOT NULL)",
            [.integer(formID)]) == 1
    }

    package func entryIDBounds() throws -> (firstID: Int64, lastID: Int64) {
        // Two subqueries: SQLite answers a lone min() or max() from the B-tree's ends, but
        // scans the whole table for both in one.
        let statement = try database.cachedStatement(
            "SELECT coalesce((SELECT min(id) FROM entries), 0), coalesce((SELECT max(id) FROM entries), 0)")
        return try statement.first { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
    }

    /// Merges `entry_versions` (by entry and version) into `entries` (by id): one pass over
    /// each, in the order import digests are defined over.
    package func forEachEntryVersion(_ body: (EntryVersionRow, UnsafeRawBufferPointer) throws -> Void) throws {
        let versions = try database.makeStatement("""
            SELECT entry_id, version, layout_id, vals, written_in, replaced_in, source_line FROM entry_versions
            ORDER BY entry_id, version
            """)
        defer { versions.reset() }
        var versionsPending = try versions.step()
        let entries = try database.makeStatement("""
            SELECT id, form_id, key, layout_id, vals, version, created_in, updated_in, source_line FROM entries ORDER BY id
            """)
        defer { entries.reset() }
        // An earlier version whose entry is gone is passed with the next entry's fields
        // unknown: form 0, no key.
        func earlier(_ formID: Int64, _ key: String?) throws {
            let v = Row(handle: versions.handle)
            let row = EntryVersionRow(entryID: v.int64(0), version: v.int64(1), formID: formID, key: key,
                                      layoutID: v.int64(2), writtenIn: v.int64(4),
                                      createdOrReplacedIn: v.int64(5), isCurrent: false,
                                      sourceLine: v.optionalInt64(6))
            try v.withUnsafeBytes(at: 3) { try body(row, $0) }
        }
        while try entries.step() {
            let e = Row(handle: entries.handle)
            let id = e.int64(0), formID = e.int64(1), key = e.optionalString(2)
            while versionsPending {
                let entryID = Row(handle: versions.handle).int64(0)
                if entryID > id { break }
                if entryID < id { try earlier(0, nil) } else { try earlier(formID, key) }
                versionsPending = try versions.step()
            }
            let createdIn = e.int64(6)
            let row = EntryVersionRow(entryID: id, version: e.int64(5), formID: formID, key: key,
                                      layoutID: e.int64(3), writtenIn: e.optionalInt64(7) ?? createdIn,
                                      createdOrReplacedIn: createdIn, isCurrent: true,
                                      sourceLine: e.optionalInt64(8))
            try e.withUnsafeBytes(at: 4) { try body(row, $0) }
        }
        while versionsPending {
            try earlier(0, nil)
            versionsPending = try versions.step()
        }
    }

    package func beginEntryScans(count: Int) throws -> [any EntryScanning] {
        try (0..<count).map { _ in try SQLiteEntryScan(path: database.path) }
    }

    /// Automatic WAL checkpoints off while `body` runs, then one checkpoint: long-lived
    /// readers keep a checkpoint from getting past them, and with auto-checkpointing on, every
    /// commit past the WAL threshold would try again, and sync the files, for nothing.
    package func withLongReaders<T>(_ body: () throws -> T) throws -> T {
        let automatic = try database.scalarInt64("PRAGMA wal_autocheckpoint") ?? 1000
        try database.executeScript("PRAGMA wal_autocheckpoint = 0")
        defer {
            try? database.executeScript("PRAGMA wal_autocheckpoint = \(automatic)")
            try? database.executeScript("PRAGMA wal_checkpoint(PASSIVE)")
        }
        return try body()
    }

    // MARK: Rows

    static let entrySelect = """
        SELECT e.id, f.name, e.key, e.layout_id, e.vals, e.version, c.at, coalesce(u.at, c.at),
               e.created_in, e.updated_in
        FROM entries AS e JOIN forms AS f ON f.id = e.form_id
        JOIN imports AS c ON c.id = e.created_in LEFT JOIN imports AS u ON u.id = e.updated_in
        """

    static func entryRecord(from row: Row) -> EntryRecord {
        EntryRecord(id: row.int64(0), form: row.string(1), key: row.optionalString(2), layoutID: row.int64(3),
                    values: row.blob(4), version: row.int(5), createdAt: row.string(6), updatedAt: row.string(7),
                    createdIn: row.int64(8), updatedIn: row.optionalInt64(9))
    }
}

/// The prepared statements of one import: the fast path of `import`.
final class SQLiteEntryRowWriter: EntryRowWriting {
    let database: Database
    let formID: Int64
    let importID: Int64
    private let insert: Statement
    private let findByKey: Statement
    private let saveVersion: Statement
    private let update: Statement

    init(database: Database, formID: Int64, importID: Int64) throws {
        self.database = database
        self.formID = formID
        self.importID = importID
        insert = try database.makeStatement("""
            INSERT INTO entries (form_id, key, layout_id, vals, created_in, source_line) VALUES (?, ?, ?, ?, ?, ?)
            """)
        findByKey = try database.makeStatement(
            "SELECT id, layout_id, vals, version FROM entries WHERE form_id = ? AND key = ?")
        saveVersion = try database.makeStatement("""
            INSERT INTO entry_versions (entry_id, version, layout_id, vals, written_in, replaced_in, source_line)
            SELECT id, version, layout_id, vals, coalesce(updated_in, created_in), ?, source_line FROM entries WHERE id = ?
            """)
        update = try database.makeStatement("""
            UPDATE entries SET layout_id = ?, vals = ?, version = version + 1, updated_in = ?, source_line = ? WHERE id = ?
            """)
    }

    func insert(key: String?, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws -> Int64 {
        insert.bind(formID, at: 1)
        insert.bind(key, at: 2)
        insert.bind(layoutID, at: 3)
        insert.bind(bytes: values, at: 4)
        insert.bind(importID, at: 5)
        insert.bind(line, at: 6)
        try insert.execute()
        return database.lastInsertRowID
    }

    func find(key: String, layoutID: Int64, values: UnsafeRawBufferPointer) throws
        -> (id: Int64, sameValues: Bool, version: Int)? {
        findByKey.bind(formID, at: 1)
        findByKey.bind(key, at: 2)
        return try findByKey.first { row in
            let same = row.int64(1) == layoutID && row.withUnsafeBytes(at: 2) { $0.elementsEqual(values) }
            return (row.int64(0), same, row.int(3))
        }
    }

    func replace(id: Int64, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws {
        saveVersion.bind(importID, at: 1)
        saveVersion.bind(id, at: 2)
        try saveVersion.execute()
        update.bind(layoutID, at: 1)
        update.bind(bytes: values, at: 2)
        update.bind(importID, at: 3)
        update.bind(line, at: 4)
        update.bind(id, at: 5)
        try update.execute()
    }
}

/// One read connection in a read transaction begun now, for one validation worker.
final class SQLiteEntryScan: EntryScanning {
    let database: Database
    private let scan: Statement

    init(path: String) throws {
        var configuration = Database.Configuration()
        configuration.readOnly = true
        configuration.create = false
        database = try Database(path: path, configuration: configuration)
        // No upper bound in SQL: the loop stops at the first id past the range, one comparison
        // instead of two more VDBE steps per row.
        scan = try database.makeStatement(
            "SELECT id, form_id, layout_id, vals, version FROM entries WHERE id > ? ORDER BY id")
        try database.executeScript("BEGIN DEFERRED")
        // A read fixes the snapshot now, while the writer holds the lock.
        _ = try database.scalarInt64("SELECT max(id) FROM entries")
    }

    deinit { end() }

    func forEachEntry(afterID: Int64, throughID: Int64, _ body: (EntryRowView) throws -> Void) throws {
        scan.bind(afterID, at: 1)
        defer { scan.reset() }
        try scan.forEachRowWhile { row in
            let id = row.int64(0)
            guard id <= throughID else { return false }
            try row.withUnsafeBytes(at: 3) { values in
                // The version is read only if asked for (by failing entries): reading another
                // column leaves the values' pointer valid.
                try body(EntryRowView(id: id, formID: row.int64(1), layoutID: row.int64(2), values: values,
                                      statement: row.handle, versionColumn: 4))
            }
            return true
        }
    }

    func end() {
        if database.isInTransaction { try? database.executeScript("COMMIT") }
    }
}
