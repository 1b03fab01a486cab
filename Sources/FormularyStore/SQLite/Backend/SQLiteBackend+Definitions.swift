/// Type and form versions and events (tables `type_versions`, `type_events`, `form_versions`,
/// `form_events`).
extension SQLiteBackend {
    package func currentVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)) FROM (SELECT max(id) AS last FROM \(kind.eventsTable) GROUP BY name) AS latest
            JOIN \(kind.eventsTable) AS e ON e.id = latest.last
            JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.action = 'add' ORDER BY v.name
            """).map { Self.version(kind, from: $0) }
    }

    package func currentVersion(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)) FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.name = ? ORDER BY e.id DESC LIMIT 1
            """)
        try statement.bind([.text(name)])
        return try statement.first { $0.isNull(0) ? nil : Self.version(kind, from: $0) } ?? nil
    }

    package func versions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion] {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = ? ORDER BY v.id")
        try statement.bind([.text(name)])
        return try statement.map { Self.version(kind, from: $0) }
    }

    package func allVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try database.cachedStatement("SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v ORDER BY v.id")
            .map { Self.version(kind, from: $0) }
    }

    package func version(_ kind: DefinitionKind, name: String, hash: String) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = ? AND v.hash = ?")
        try statement.bind([.text(name), .text(hash)])
        return try statement.first { Self.version(kind, from: $0) }
    }

    package func version(_ kind: DefinitionKind, id: Int64) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.id = ?")
        try statement.bind([.integer(id)])
        return try statement.first { Self.version(kind, from: $0) }
    }

    package func insertVersion(_ v: DefinitionVersion) throws -> Int64 {
        if v.kind == .type {
            try database.execute("""
                INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor, secure) VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(v.name), .text(v.hash), .text(v.source), .text(v.origin), .text(v.recordedAt),
                      .text(v.actor), .integer(v.secure ? 1 : 0)])
        } else {
            try database.execute("""
                INSERT INTO form_versions (name, hash, source, origin, recorded_at, actor) VALUES (?, ?, ?, ?, ?, ?)
                """, [.text(v.name), .text(v.hash), .text(v.source), .text(v.origin), .text(v.recordedAt),
                      .text(v.actor)])
        }
        return database.lastInsertRowID
    }

    package func setSecure(typeVersionID: Int64, _ secure: Bool) throws {
        try database.execute("UPDATE type_versions SET secure = ? WHERE id = ?",
                             [.integer(secure ? 1 : 0), .integer(typeVersionID)])
    }

    package func insertEvent(_ kind: DefinitionKind, _ event: DefinitionEvent) throws -> Int64 {
        try database.execute("""
            INSERT INTO \(kind.eventsTable) (name, action, version_id, at, actor) VALUES (?, ?, ?, ?, ?)
            """, [.text(event.name), .text(event.action.rawValue), .integer(event.version?.id),
                  .text(event.at), .text(event.actor)])
        return database.lastInsertRowID
    }

    package func events(_ kind: DefinitionKind, name: String) throws -> [DefinitionEvent] {
        let statement = try database.cachedStatement("\(Self.eventSelect(kind)) WHERE e.name = ? ORDER BY e.id")
        try statement.bind([.text(name)])
        return try statement.map { Self.event(kind, from: $0) }
    }

    package func event(_ kind: DefinitionKind, id: Int64) throws -> DefinitionEvent? {
        let statement = try database.cachedStatement("\(Self.eventSelect(kind)) WHERE e.id = ?")
        try statement.bind([.integer(id)])
        return try statement.first { Self.event(kind, from: $0) }
    }

    package func allEvents(_ kind: DefinitionKind) throws -> [DefinitionEvent] {
        try database.cachedStatement("\(Self.eventSelect(kind)) ORDER BY e.id").map { Self.event(kind, from: $0) }
    }

    package func referencedVersionIDs(_ kind: DefinitionKind) throws -> [Int64] {
        let runs = kind == .type ? "SELECT type_version_id FROM run_type_versions"
                                 : "SELECT form_version_id FROM run_forms"
        return try database.cachedStatement("""
            SELECT version_id FROM \(kind.eventsTable) WHERE version_id IS NOT NULL UNION \(runs)
            """).map { $0.int64(0) }
    }

    // MARK: Rows

    /// The columns ``version(_:from:at:)`` reads, from a table aliased `v` (eight of them).
    static func versionColumns(_ kind: DefinitionKind) -> String {
        "v.id, v.name, v.hash, v.source, v.origin, v.recorded_at, v.actor, "
            + (kind == .type ? "coalesce(v.secure, 0)" : "0")
    }

    static func version(_ kind: DefinitionKind, from row: Row, at c: Int = 0) -> DefinitionVersion {
        DefinitionVersion(id: row.int64(c), kind: kind, name: row.string(c + 1), hash: row.string(c + 2),
                          source: row.string(c + 3), origin: row.string(c + 4), recordedAt: row.string(c + 5),
                          actor: row.string(c + 6), secure: row.bool(c + 7))
    }

    static func eventSelect(_ kind: DefinitionKind) -> String {
        """
        SELECT \(versionColumns(kind)), e.id, e.action, e.at, e.actor, e.name FROM \(kind.eventsTable) AS e
        LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
        """
    }

    static func event(_ kind: DefinitionKind, from row: Row) -> DefinitionEvent {
        DefinitionEvent(id: row.int64(8), name: row.string(12),
                        action: DefinitionEvent.Action(rawValue: row.string(9)) ?? .add,
                        version: row.isNull(0) ? nil : version(kind, from: row),
                        at: row.string(10), actor: row.string(11))
    }
}

extension DefinitionKind {
    /// The tables of a kind's versions and events.
    package var versionsTable: String { self == .type ? "type_versions" : "form_versions" }
    package var eventsTable: String { self == .type ? "type_events" : "form_events" }
}
