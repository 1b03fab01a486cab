import FormularyStore
/// Type and form versions and events (tables `type_versions`, `type_events`, `form_versions`,
/// `form_events`): the statements of ``SQLiteBackend``'s in PostgreSQL's dialect. Names sort
/// by their bytes (`COLLATE "C"`), as SQLite sorts them, whatever the database's collation.
package extension PostgresBackend {
    func currentVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try connection.execute("""
            SELECT \(Self.versionColumns(kind)) FROM (SELECT max(id) AS last FROM \(kind.eventsTable) GROUP BY name) AS latest
            JOIN \(kind.eventsTable) AS e ON e.id = latest.last
            JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.action = 'add' ORDER BY v.name COLLATE "C"
            """).map { row in try Self.version(kind, from: row) }
    }

    func currentVersion(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion? {
        guard let row = try connection.execute("""
            SELECT \(Self.versionColumns(kind)) FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.name = $1 ORDER BY e.id DESC LIMIT 1
            """, [.text(name)]).first, !row.isNull(0) else { return nil }
        return try Self.version(kind, from: row)
    }

    func versions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion] {
        try connection.execute("SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = $1 ORDER BY v.id",
                               [.text(name)]).map { row in try Self.version(kind, from: row) }
    }

    func allVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try connection.execute("SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v ORDER BY v.id")
            .map { row in try Self.version(kind, from: row) }
    }

    func version(_ kind: DefinitionKind, name: String, hash: String) throws -> DefinitionVersion? {
        try connection.execute(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = $1 AND v.hash = $2",
            [.text(name), .text(hash)]).first.map { row in try Self.version(kind, from: row) }
    }

    func version(_ kind: DefinitionKind, id: Int64) throws -> DefinitionVersion? {
        try connection.execute("SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.id = $1",
                               [.integer(id)]).first.map { row in try Self.version(kind, from: row) }
    }

    func insertVersion(_ v: DefinitionVersion) throws -> Int64 {
        let result: PostgresResult
        if v.kind == .type {
            result = try connection.execute("""
                INSERT INTO type_versions (id, name, hash, source, origin, recorded_at, actor, secure)
                VALUES (\(Self.nextID("type_versions")), $1, $2, $3, $4, $5, $6, $7) RETURNING id
                """, [.text(v.name), .text(v.hash), .text(v.source), .text(v.origin), .text(v.recordedAt),
                      .text(v.actor), .bool(v.secure)])
        } else {
            result = try connection.execute("""
                INSERT INTO form_versions (id, name, hash, source, origin, recorded_at, actor)
                VALUES (\(Self.nextID("form_versions")), $1, $2, $3, $4, $5, $6) RETURNING id
                """, [.text(v.name), .text(v.hash), .text(v.source), .text(v.origin), .text(v.recordedAt),
                      .text(v.actor)])
        }
        return try Self.returnedID(result)
    }

    func setSecure(typeVersionID: Int64, _ secure: Bool) throws {
        try connection.execute("UPDATE type_versions SET secure = $1 WHERE id = $2", [.bool(secure), .integer(typeVersionID)])
    }

    func insertEvent(_ kind: DefinitionKind, _ event: DefinitionEvent) throws -> Int64 {
        try Self.returnedID(connection.execute("""
            INSERT INTO \(kind.eventsTable) (id, name, action, version_id, at, actor)
            VALUES (\(Self.nextID(kind.eventsTable)), $1, $2, $3::bigint, $4, $5) RETURNING id
            """, [.text(event.name), .text(event.action.rawValue), .integer(event.version?.id),
                  .text(event.at), .text(event.actor)]))
    }

    func events(_ kind: DefinitionKind, name: String) throws -> [DefinitionEvent] {
        try connection.execute("\(Self.eventSelect(kind)) WHERE e.name = $1 ORDER BY e.id", [.text(name)])
            .map { row in try Self.event(kind, from: row) }
    }

    func event(_ kind: DefinitionKind, id: Int64) throws -> DefinitionEvent? {
        try connection.execute("\(Self.eventSelect(kind)) WHERE e.id = $1", [.integer(id)])
            .first.map { row in try Self.event(kind, from: row) }
    }

    func allEvents(_ kind: DefinitionKind) throws -> [DefinitionEvent] {
        try connection.execute("\(Self.eventSelect(kind)) ORDER BY e.id").map { row in try Self.event(kind, from: row) }
    }

    /// In ascending order (SQLite's UNION happens to give it; PostgreSQL's does not promise any).
    func referencedVersionIDs(_ kind: DefinitionKind) throws -> [Int64] {
        let runs = kind == .type ? "SELECT type_version_id FROM run_type_versions"
                                 : "SELECT form_version_id FROM run_forms"
        return try connection.execute("""
            SELECT version_id FROM \(kind.eventsTable) WHERE version_id IS NOT NULL UNION \(runs) ORDER BY 1
            """).map { row in try row.int64(0) }
    }

    // MARK: Rows

    /// The id a new row of `table` gets, as an SQL expression: one more than the highest, as
    /// SQLite gives rowids (a rolled-back insert gives its id back; an identity would leave a
    /// gap). Safe because rows are inserted only in write transactions, which hold the
    /// writers' lock.
    static func nextID(_ table: String) -> String { "(SELECT coalesce(max(id), 0) + 1 FROM \(table))" }

    /// The id of an `INSERT … RETURNING id`.
    static func returnedID(_ result: PostgresResult) throws -> Int64 {
        guard let row = result.first else {
            throw PostgresError(kind: .misuse, message: "the insert returned no id", sql: result.sql)
        }
        return try row.int64(0)
    }

    /// The columns ``version(_:from:at:)`` reads, from a table aliased `v` (eight of them).
    static func versionColumns(_ kind: DefinitionKind) -> String {
        "v.id, v.name, v.hash, v.source, v.origin, v.recorded_at, v.actor, "
            + (kind == .type ? "coalesce(v.secure, false)" : "false")
    }

    static func version(_ kind: DefinitionKind, from row: PostgresRow, at c: Int = 0) throws -> DefinitionVersion {
        DefinitionVersion(id: try row.int64(c), kind: kind, name: try row.string(c + 1), hash: try row.string(c + 2),
                          source: try row.string(c + 3), origin: try row.string(c + 4),
                          recordedAt: try row.string(c + 5), actor: try row.string(c + 6), secure: try row.bool(c + 7))
    }

    static func eventSelect(_ kind: DefinitionKind) -> String {
        """
        SELECT \(versionColumns(kind)), e.id, e.action, e.at, e.actor, e.name FROM \(kind.eventsTable) AS e
        LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
        """
    }

    static func event(_ kind: DefinitionKind, from row: PostgresRow) throws -> DefinitionEvent {
        DefinitionEvent(id: try row.int64(8), name: try row.string(12),
                        action: DefinitionEvent.Action(rawValue: try row.string(9)) ?? .add,
                        version: row.isNull(0) ? nil : try version(kind, from: row),
                        at: try row.string(10), actor: try row.string(11))
    }
}
