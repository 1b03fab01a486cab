import FormularyStore
/// Entries (tables `entries`, `entry_versions`): the statements of ``SQLiteBackend``'s in
/// PostgreSQL's dialect. Reads that may cover every entry go in pages by id (keyset), so that
/// neither side holds the whole table. New entries without a key are imported through COPY.
package extension PostgresBackend {
    func makeEntryRowWriter(formID: Int64, importID: Int64) throws -> any EntryRowWriting {
        PostgresEntryRowWriter(backend: self, formID: formID, importID: importID)
    }

    func entry(id: Int64) throws -> EntryRecord? {
        try connection.execute("\(Self.entrySelect) WHERE e.id = $1", [.integer(id)]).first.map(Self.entryRecord(from:))
    }

    func entries(form: String?, afterID: Int64, limit: Int?) throws -> [EntryRecord] {
        try connection.execute("""
            \(Self.entrySelect) WHERE ($1::text IS NULL OR f.name = $1) AND e.id > $2 ORDER BY e.id LIMIT $3::bigint
            """, [.text(form), .integer(afterID), .integer(limit.map(Int64.init))]).map(Self.entryRecord(from:))
    }

    func entryCount(form: String?) throws -> Int {
        Int(try connection.scalarInt64("""
            SELECT count(*) FROM entries AS e JOIN forms AS f ON f.id = e.form_id WHERE $1::text IS NULL OR f.name = $1
            """, [.text(form)]) ?? 0)
    }

    func earlierVersions(entryID: Int64) throws -> [EarlierVersionRecord] {
        try connection.execute("""
            SELECT v.entry_id, v.version, v.layout_id, v.vals, v.written_in, v.replaced_in, w.at, r.at
            FROM entry_versions AS v
            JOIN imports AS w ON w.id = v.written_in JOIN imports AS r ON r.id = v.replaced_in
            WHERE v.entry_id = $1 ORDER BY v.version
            """, [.integer(entryID)]).map { row in
            EarlierVersionRecord(entryID: try row.int64(0), version: try row.int(1), layoutID: try row.int64(2),
                                 values: try row.bytes(3), writtenIn: try row.int64(4), replacedIn: try row.int64(5),
                                 writtenAt: try row.string(6), replacedAt: try row.string(7))
        }
    }

    /// One statement for all of them (`= ANY` of an array literal built from the integers).
    func entryKeys(_ ids: [Int64]) throws -> [Int64: String] {
        var keys: [Int64: String] = [:]
        guard !ids.isEmpty else { return keys }
        let list = "{" + ids.map(String.init).joined(separator: ",") + "}"
        for row in try connection.execute("SELECT id, key FROM entries WHERE id = ANY ($1::text::bigint[]) AND key IS NOT NULL",
                                          [.text(list)]) {
            keys[try row.int64(0)] = try row.string(1)
        }
        return keys
    }

    func hasKeyedEntries(formID: Int64) throws -> Bool {
        try connection.execute("SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = $1 AND key IS NOT NULL)",
                               [.integer(formID)]).first?.bool(0) ?? false
    }

    func entryIDBounds() throws -> (firstID: Int64, lastID: Int64) {
        guard let row = try connection.execute(
            "SELECT coalesce((SELECT min(id) FROM entries), 0), coalesce((SELECT max(id) FROM entries), 0)").first
        else { return (0, 0) }
        return (try row.int64(0), try row.int64(1))
    }

    /// Merges `entry_versions` (by entry and version) into `entries` (by id), each read in
    /// pages, in the order import digests are defined over.
    func forEachEntryVersion(_ body: (EntryVersionRow, UnsafeRawBufferPointer) throws -> Void) throws {
        let versions = KeysetPages(connection: connection, sql: """
            SELECT entry_id, version, layout_id, vals, written_in, replaced_in, source_line FROM entry_versions
            WHERE (entry_id, version) > ($1, $2) ORDER BY entry_id, version LIMIT 2000
            """, keys: { row in [.integer(try row.int64(0)), .integer(try row.int64(1))] }, start: [.integer(0), .integer(0)])
        let entries = KeysetPages(connection: connection, sql: """
            SELECT id, form_id, key, layout_id, vals, version, created_in, updated_in, source_line FROM entries
            WHERE id > $1 ORDER BY id LIMIT 2000
            """, keys: { row in [.integer(try row.int64(0))] }, start: [.integer(0)])
        // An earlier version whose entry is gone is passed with the next entry's fields
        // unknown: form 0, no key.
        func earlier(_ v: PostgresRow, _ formID: Int64, _ key: String?) throws {
            let row = EntryVersionRow(entryID: try v.int64(0), version: try v.int64(1), formID: formID, key: key,
                                      layoutID: try v.int64(2), writtenIn: try v.int64(4),
                                      createdOrReplacedIn: try v.int64(5), isCurrent: false,
                                      sourceLine: try v.optionalInt64(6))
            try v.bytes(3).withUnsafeBytes { try body(row, $0) }
        }
        var pending = try versions.next()
        while let e = try entries.next() {
            let id = try e.int64(0), formID = try e.int64(1), key = try e.optionalString(2)
            while let v = pending {
                let entryID = try v.int64(0)
                if entryID > id { break }
                try earlier(v, entryID < id ? 0 : formID, entryID < id ? nil : key)
                pending = try versions.next()
            }
            let createdIn = try e.int64(6)
            let row = EntryVersionRow(entryID: id, version: try e.int64(5), formID: formID, key: key,
                                      layoutID: try e.int64(3), writtenIn: try e.optionalInt64(7) ?? createdIn,
                                      createdOrReplacedIn: createdIn, isCurrent: true,
                                      sourceLine: try e.optionalInt64(8))
            try e.bytes(4).withUnsafeBytes { try body(row, $0) }
        }
        while let v = pending {
            try earlier(v, 0, nil)
            pending = try versions.next()
        }
    }

    /// Readers on one snapshot: the first opens a read-only `REPEATABLE READ` transaction and
    /// exports its snapshot, the others import it (`SET TRANSACTION SNAPSHOT`), so all see
    /// exactly the same entries — those committed now, as SQLite's readers begun now see.
    func beginEntryScans(count: Int) throws -> [any EntryScanning] {
        guard count > 0 else { return [] }
        let first = try PostgresEntryScan(url: url, snapshot: nil)
        let snapshot = try first.connection.scalarString("SELECT pg_export_snapshot()")
        first.snapshot = snapshot
        var scans: [any EntryScanning] = [first]
        for _ in 1..<count { scans.append(try PostgresEntryScan(url: url, snapshot: snapshot)) }
        return scans
    }

    /// Nothing to put off: the server's maintenance (vacuum) already leaves rows that an open
    /// snapshot may still read.
    func withLongReaders<T>(_ body: () throws -> T) throws -> T { try body() }

    // MARK: Rows

    static let entrySelect = """
        SELECT e.id, f.name, e.key, e.layout_id, e.vals, e.version, c.at, coalesce(u.at, c.at),
               e.created_in, e.updated_in
        FROM entries AS e JOIN forms AS f ON f.id = e.form_id
        JOIN imports AS c ON c.id = e.created_in LEFT JOIN imports AS u ON u.id = e.updated_in
        """

    static func entryRecord(from row: PostgresRow) throws -> EntryRecord {
        EntryRecord(id: try row.int64(0), form: try row.string(1), key: try row.optionalString(2),
                    layoutID: try row.int64(3), values: try row.bytes(4), version: try row.int(5),
                    createdAt: try row.string(6), updatedAt: try row.string(7), createdIn: try row.int64(8),
                    updatedIn: try row.optionalInt64(9))
    }
}

/// Rows of an ordered query read page by page: the query takes the last row's keys as its
/// parameters (`WHERE (a, b) > ($1, $2) ORDER BY a, b LIMIT n`).
final class KeysetPages {
    let connection: PostgresConnection
    let sql: String
    let keys: (PostgresRow) throws -> [PostgresValue]
    private var after: [PostgresValue]
    private var page: PostgresResult?
    private var index = 0
    private var finished = false
    let binary: Bool

    init(connection: PostgresConnection, sql: String, keys: @escaping (PostgresRow) throws -> [PostgresValue],
         start: [PostgresValue], binary: Bool = false) {
        self.connection = connection
        self.sql = sql
        self.keys = keys
        self.after = start
        self.binary = binary
    }

    /// The next row, nil after the last.
    func next() throws -> PostgresRow? {
        if let page, index < page.count {
            defer { index += 1 }
            return page[index]
        }
        guard !finished else { return nil }
        let next = try connection.execute(sql, after, binaryResults: binary)
        guard let last = next.last else {
            finished = true
            return nil
        }
        after = try keys(last)
        page = next
        index = 1
        return next[0]
    }
}

/// The entries of one import. New entries without a key go through COPY (binary): they are
/// held back on the connection and sent in one stream before its next statement — a read,
/// another write, the commit — or when a few megabytes are waiting. Keyed entries, lookups and
/// replacements are one statement each (they need an answer from the table, so the held-back
/// rows go first).
///
/// Ids are given here, one more than the highest (``PostgresBackend/nextEntryID``), as SQLite
/// gives them: the write transaction's advisory lock keeps other writers out meanwhile. A
/// write outside a transaction runs in one of its own, to hold the lock.
final class PostgresEntryRowWriter: EntryRowWriting, PostgresPendingWork {
    unowned let backend: PostgresBackend
    let formID: Int64
    let importID: Int64
    private var copy = PostgresBinaryCopy()
    static let bytesPerCopy = 8 << 20
    static let copyStatement = "COPY entries (id, form_id, layout_id, vals, created_in, source_line) FROM STDIN (FORMAT binary)"

    var connection: PostgresConnection { backend.connection }

    init(backend: PostgresBackend, formID: Int64, importID: Int64) {
        self.backend = backend
        self.formID = formID
        self.importID = importID
    }

    func insert(key: String?, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws -> Int64 {
        guard connection.isInTransaction else {
            return try backend.transaction(.write) { try insert(key: key, layoutID: layoutID, values: values, line: line) }
        }
        // Another writer's rows first: the connection holds one writer's rows at a time.
        if let other = connection.pending, other !== self { try connection.flushPending() }
        let id = try takeID()
        guard key == nil else {
            try connection.execute("""
                INSERT INTO entries (id, form_id, key, layout_id, vals, created_in, source_line)
                VALUES ($1, $2, $3, $4, $5, $6, $7::bigint)
                """, [.integer(id), .integer(formID), .text(key), .integer(layoutID), .bytes(Array(values)), .integer(importID),
                      .integer(line)])
            return id
        }
        copy.beginRow(fields: 6)
        copy.int8(id)
        copy.int8(formID)
        copy.int8(layoutID)
        copy.bytea(values)
        copy.int8(importID)
        if let line { copy.int8(line) } else { copy.null() }
        connection.pending = self
        if copy.bytes.count >= Self.bytesPerCopy { try connection.flushPending() }
        return id
    }

    /// The next id of this transaction (read from the table once: rows held back already
    /// took theirs from the same count).
    private func takeID() throws -> Int64 {
        let id: Int64
        if let next = backend.nextEntryID {
            id = next
        } else {
            id = (try connection.scalarInt64("SELECT coalesce(max(id), 0) FROM entries") ?? 0) + 1
        }
        backend.nextEntryID = id + 1
        return id
    }

    func flush(_ connection: PostgresConnection) throws {
        guard !copy.isEmpty else { return }
        let data = copy.finished()
        copy.reset()
        try connection.copyIn(Self.copyStatement, data: data)
    }

    func discard() {
        copy.reset()
        backend.nextEntryID = nil
    }

    func find(key: String, layoutID: Int64, values: UnsafeRawBufferPointer) throws
        -> (id: Int64, sameValues: Bool, version: Int)? {
        guard let row = try connection.execute(
            "SELECT id, layout_id, vals, version FROM entries WHERE form_id = $1 AND key = $2",
            [.integer(formID), .text(key)]).first else { return nil }
        let same = try row.int64(1) == layoutID && row.bytes(2).elementsEqual(values)
        return (try row.int64(0), same, try row.int(3))
    }

    func replace(id: Int64, layoutID: Int64, values: UnsafeRawBufferPointer, line: Int64?) throws {
        guard connection.isInTransaction else {
            return try backend.transaction(.write) { try replace(id: id, layoutID: layoutID, values: values, line: line) }
        }
        try connection.execute("""
            INSERT INTO entry_versions (entry_id, version, layout_id, vals, written_in, replaced_in, source_line)
            SELECT id, version, layout_id, vals, coalesce(updated_in, created_in), $1, source_line FROM entries WHERE id = $2
            """, [.integer(importID), .integer(id)])
        try connection.execute("""
            UPDATE entries SET layout_id = $1, vals = $2, version = version + 1, updated_in = $3, source_line = $4::bigint
            WHERE id = $5
            """, [.integer(layoutID), .bytes(Array(values)), .integer(importID), .integer(line), .integer(id)])
    }
}

/// One connection in a read-only `REPEATABLE READ` transaction, for one validation worker;
/// with `snapshot`, on that exported snapshot.
final class PostgresEntryScan: EntryScanning {
    let connection: PostgresConnection
    /// The snapshot it reads: the one it imported, or the one it exported (set by
    /// ``PostgresBackend/beginEntryScans(count:)``), for other processes to import.
    var snapshot: String?

    init(url: String, snapshot: String?) throws {
        self.snapshot = snapshot
        connection = try PostgresConnection(url: url)
        try connection.executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        if let snapshot {
            // The id comes from pg_export_snapshot(); SET TRANSACTION takes no parameter.
            guard snapshot.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw PostgresError(kind: .misuse, message: "unexpected snapshot id from the server")
            }
            do {
                try connection.executeScript("SET TRANSACTION SNAPSHOT '\(snapshot)'")
            } catch {
                // The exporting transaction ended (22023, invalid snapshot identifier).
                throw StoreError.snapshotGone
            }
        }
    }

    deinit { end() }

    func forEachEntry(afterID: Int64, throughID: Int64, _ body: (EntryRowView) throws -> Void) throws {
        // One binary COPY stream: no round trip per page, and the values are handed over
        // where libpq holds them. The bounds are integers, written into the statement (COPY
        // takes no parameters).
        try connection.copyOut("""
            COPY (SELECT id, form_id, layout_id, vals, version FROM entries WHERE id > \(afterID) AND id <= \(throughID)
                  ORDER BY id) TO STDOUT (FORMAT binary)
            """) { fields in
            guard fields.count == 5, let id = fields[0], let form = fields[1], let layout = fields[2],
                  let values = fields[3], let version = fields[4], id.count == 8, form.count == 8,
                  layout.count == 8, version.count == 8 else {
                throw PostgresError(kind: .misuse, message: "an entry row of unexpected shape")
            }
            func int8(_ field: UnsafeRawBufferPointer) -> Int64 { Int64(bigEndian: field.loadUnaligned(as: Int64.self)) }
            try body(EntryRowView(id: int8(id), formID: int8(form), layoutID: int8(layout),
                                  version: Int(int8(version)), values: values))
        }
    }

    func end() { connection.rollbackIgnoringErrors() }
}
