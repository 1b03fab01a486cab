import FormularyRules
import FormularyJSON

extension Store {
    /// Stores `source` (the canonical source of a resolved definition) as the current database
    /// version of `name`, keyed by its SHA-256, and audits it (`types.add` / `forms.add`).
    /// Adding the definition that is already current writes nothing and says so.
    public func addVersion(_ kind: DefinitionKind, name: String, source: String,
                           actor: String) throws -> AddOutcome {
        try transaction {
            let previous = try currentVersion(kind, name: name)
            let hash = SHA256.hex(source)
            if let previous, previous.hash == hash { return .unchanged(previous) }
            let existing = try version(kind, name: name, hash: hash)
            let version = try existing ?? insertVersion(kind, name: name, hash: hash, source: source,
                                                        origin: "database", actor: actor)
            let at = timestamp()
            try database.execute("INSERT INTO \(kind.eventsTable) (name, action, version_id, at, actor) VALUES (?, 'add', ?, ?, ?)",
                                 [.text(name), .integer(version.id), .text(at), .text(actor)])
            let event = database.lastInsertRowID
            try appendAudit(actor: actor, action: "\(kind.auditNoun).add", subject: name, details: [
                "hash": .string(hash),
                "previous": previous.map { .string($0.hash) } ?? .null,
                "new_version": .bool(existing == nil),
                "event": .integer(event),
                "digest": .string(try eventDigest(kind, eventID: event)),
            ])
            return .added(version, isNewVersion: existing == nil, previous: previous)
        }
    }

    /// Records a version without making it a database definition: for built-in and folder
    /// versions a validation run used, so that results can always name the exact version.
    /// Returns the stored version (the existing one when that hash is known).
    public func recordVersion(_ kind: DefinitionKind, name: String, source: String,
                              origin: String, actor: String) throws -> DefinitionVersion {
        try transaction {
            let hash = SHA256.hex(source)
            if let existing = try version(kind, name: name, hash: hash) { return existing }
            return try insertVersion(kind, name: name, hash: hash, source: source, origin: origin,
                                     actor: actor)
        }
    }

    /// Hides `name` from the database registry; its versions stay. Audited.
    /// Throws ``StoreError/notInDatabase(kind:name:)`` when the name has no current version.
    @discardableResult
    public func retire(_ kind: DefinitionKind, name: String, actor: String) throws -> DefinitionVersion {
        try transaction {
            guard let current = try currentVersion(kind, name: name) else {
                throw StoreError.notInDatabase(kind: kind, name: name)
            }
            try database.execute("INSERT INTO \(kind.eventsTable) (name, action, version_id, at, actor) VALUES (?, 'retire', NULL, ?, ?)",
                                 [.text(name), .text(timestamp()), .text(actor)])
            let event = database.lastInsertRowID
            try appendAudit(actor: actor, action: "\(kind.auditNoun).retire", subject: name, details: [
                "hash": .string(current.hash),
                "event": .integer(event),
                "digest": .string(try eventDigest(kind, eventID: event)),
            ])
            return current
        }
    }

    /// The current database definition of every name that is not retired, by name: the
    /// "types added to the database" registry source.
    public func currentVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)) FROM (SELECT max(id) AS last FROM \(kind.eventsTable) GROUP BY name) AS latest
            JOIN \(kind.eventsTable) AS e ON e.id = latest.last
            JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.action = 'add' ORDER BY v.name
            """).map { Self.version(kind, from: $0) }
    }

    /// The current database definition of `name`, or nil (never added, or retired).
    public func currentVersion(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)) FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.name = ? ORDER BY e.id DESC LIMIT 1
            """)
        try statement.bind([.text(name)])
        return try statement.first { $0.isNull(0) ? nil : Self.version(kind, from: $0) } ?? nil
    }

    /// Every stored version of `name` (added or used by a run), oldest first.
    public func versions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion] {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = ? ORDER BY v.id")
        try statement.bind([.text(name)])
        return try statement.map { Self.version(kind, from: $0) }
    }

    /// The adds and retirements of `name`, oldest first (`types history`).
    public func events(_ kind: DefinitionKind, name: String) throws -> [DefinitionEvent] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.versionColumns(kind)), e.id, e.action, e.at, e.actor FROM \(kind.eventsTable) AS e
            LEFT JOIN \(kind.versionsTable) AS v ON v.id = e.version_id
            WHERE e.name = ? ORDER BY e.id
            """)
        try statement.bind([.text(name)])
        return try statement.map { row in
            DefinitionEvent(id: row.int64(8), name: name,
                            action: DefinitionEvent.Action(rawValue: row.string(9)) ?? .add,
                            version: row.isNull(0) ? nil : Self.version(kind, from: row),
                            at: row.string(10), actor: row.string(11))
        }
    }

    /// The version of `name` with that hash, if stored.
    public func version(_ kind: DefinitionKind, name: String, hash: String) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.name = ? AND v.hash = ?")
        try statement.bind([.text(name), .text(hash)])
        return try statement.first { Self.version(kind, from: $0) }
    }

    /// The version with that row id (as referenced by runs).
    public func version(_ kind: DefinitionKind, id: Int64) throws -> DefinitionVersion? {
        let statement = try database.cachedStatement(
            "SELECT \(Self.versionColumns(kind)) FROM \(kind.versionsTable) AS v WHERE v.id = ?")
        try statement.bind([.integer(id)])
        return try statement.first { Self.version(kind, from: $0) }
    }

    // MARK: Private

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

    private func insertVersion(_ kind: DefinitionKind, name: String, hash: String, source: String,
                               origin: String, actor: String) throws -> DefinitionVersion {
        let at = timestamp()
        let secure = kind == .type && PluginSource.declaresSecure(typeSource: source, file: "type \(name)")
        if kind == .type {
            try database.execute("INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor, secure) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                 [.text(name), .text(hash), .text(source), .text(origin), .text(at), .text(actor),
                                  .integer(secure ? 1 : 0)])
        } else {
            try database.execute("INSERT INTO form_versions (name, hash, source, origin, recorded_at, actor) VALUES (?, ?, ?, ?, ?, ?)",
                                 [.text(name), .text(hash), .text(source), .text(origin), .text(at), .text(actor)])
        }
        return DefinitionVersion(id: database.lastInsertRowID, kind: kind, name: name, hash: hash,
                                 source: source, origin: origin, recordedAt: at, actor: actor, secure: secure)
    }
}
