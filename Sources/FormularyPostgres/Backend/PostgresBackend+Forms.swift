import FormularyStore
/// Forms, layouts and imports (tables `forms`, `entry_layouts`, `imports`): the statements of
/// ``SQLiteBackend``'s in PostgreSQL's dialect.
package extension PostgresBackend {
    func formID(named name: String) throws -> Int64? {
        try connection.scalarInt64("SELECT id FROM forms WHERE name = $1", [.text(name)])
    }

    func insertForm(named name: String) throws -> Int64 {
        try Self.returnedID(connection.execute("INSERT INTO forms (id, name) VALUES (\(Self.nextID("forms")), $1) RETURNING id", [.text(name)]))
    }

    /// Sorted by their bytes, as SQLite sorts them.
    func formNames() throws -> [String] {
        try connection.execute(#"SELECT name FROM forms ORDER BY name COLLATE "C""#).map { row in try row.string(0) }
    }

    func hasEntries(formID: Int64) throws -> Bool {
        try connection.execute("SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = $1)", [.integer(formID)])
            .first?.bool(0) ?? false
    }

    func layoutID(encodedFields: [UInt8]) throws -> Int64? {
        try connection.scalarInt64("SELECT id FROM entry_layouts WHERE fields = $1", [.bytes(encodedFields)])
    }

    func insertLayout(encodedFields: [UInt8]) throws -> Int64 {
        try Self.returnedID(connection.execute("INSERT INTO entry_layouts (id, fields) VALUES (\(Self.nextID("entry_layouts")), $1) RETURNING id",
                                               [.bytes(encodedFields)]))
    }

    func encodedLayout(id: Int64) throws -> [UInt8]? {
        try connection.execute("SELECT fields FROM entry_layouts WHERE id = $1", [.integer(id)]).first?.bytes(0)
    }

    func encodedLayouts() throws -> [Int64: [UInt8]] {
        var out: [Int64: [UInt8]] = [:]
        for row in try connection.execute("SELECT id, fields FROM entry_layouts") {
            out[try row.int64(0)] = try row.bytes(1)
        }
        return out
    }

    func insertImport(formID: Int64, at: String, actor: String, source: String) throws -> Int64 {
        try Self.returnedID(connection.execute(
            "INSERT INTO imports (id, form_id, at, actor, source) VALUES (\(Self.nextID("imports")), $1, $2, $3, $4) RETURNING id",
            [.integer(formID), .text(at), .text(actor), .text(source)]))
    }

    func importHeaders() throws -> [Int64: ImportHeader] {
        var out: [Int64: ImportHeader] = [:]
        for row in try connection.execute("""
            SELECT i.id, i.form_id, coalesce(f.name, ''), i.at, i.actor, i.source
            FROM imports AS i LEFT JOIN forms AS f ON f.id = i.form_id ORDER BY i.id
            """) {
            out[try row.int64(0)] = ImportHeader(id: try row.int64(0), formID: try row.int64(1), form: try row.string(2),
                                                 at: try row.string(3), actor: try row.string(4), source: try row.string(5))
        }
        return out
    }

    func lastImportID() throws -> Int64 {
        try connection.scalarInt64("SELECT coalesce(max(id), 0) FROM imports") ?? 0
    }
}
