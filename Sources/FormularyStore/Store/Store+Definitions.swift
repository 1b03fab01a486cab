import FormularyJSON
import FormularyRules

/// Type and form definitions: versions keyed by the SHA-256 of their canonical source, and
/// the events that make one current or retire a name, each audited with its digest.
extension Store {
    /// Stores `source` (the canonical source of a resolved definition) as the current database
    /// version of `name`, keyed by its SHA-256, and audits it (`types.add` / `forms.add`).
    /// Adding the definition that is already current writes nothing and says so.
    ///
    /// `note` adds members to the audit record's details (a version admitted against its
    /// compatibility policy records the policy and the reason given).
    package func addVersion(_ kind: DefinitionKind, name: String, source: String,
                           actor: String, note: [(String, JSONValue)] = []) throws -> AddOutcome {
        try transaction {
            let previous = try backend.currentVersion(kind, name: name)
            let hash = SHA256.hex(source)
            if let previous, previous.hash == hash { return .unchanged(previous) }
            let existing = try backend.version(kind, name: name, hash: hash)
            let version = try existing ?? insertVersion(kind, name: name, hash: hash, source: source,
                                                        origin: "database", actor: actor)
            let event = try insertEvent(kind, name: name, action: .add, version: version, actor: actor)
            let details: [(String, JSONValue)] = [
                ("hash", .string(hash)),
                ("previous", previous.map { .string($0.hash) } ?? .null),
                ("new_version", .bool(existing == nil)),
                ("event", .integer(event.id)),
                ("digest", .string(DataDigests.eventDigest(key: try auditKey(), kind: kind, event: event))),
            ]
            try appendAudit(actor: actor, action: "\(kind.auditNoun).add", subject: name,
                            details: .object(JSONObject(details + note)))
            return .added(version, isNewVersion: existing == nil, previous: previous)
        }
    }

    /// Records a version without making it a database definition: for built-in and folder
    /// versions a validation run used, so that results can always name the exact version.
    /// Returns the stored version (the existing one when that hash is known).
    package func recordVersion(_ kind: DefinitionKind, name: String, source: String,
                              origin: String, actor: String) throws -> DefinitionVersion {
        try transaction {
            let hash = SHA256.hex(source)
            if let existing = try backend.version(kind, name: name, hash: hash) { return existing }
            return try insertVersion(kind, name: name, hash: hash, source: source, origin: origin, actor: actor)
        }
    }

    /// Hides `name` from the database registry; its versions stay. Audited.
    /// Throws ``StoreError/notInDatabase(kind:name:)`` when the name has no current version.
    @discardableResult
    package func retire(_ kind: DefinitionKind, name: String, actor: String) throws -> DefinitionVersion {
        try transaction {
            guard let current = try backend.currentVersion(kind, name: name) else {
                throw StoreError.notInDatabase(kind: kind, name: name)
            }
            let event = try insertEvent(kind, name: name, action: .retire, version: nil, actor: actor)
            try appendAudit(actor: actor, action: "\(kind.auditNoun).retire", subject: name, details: [
                "hash": .string(current.hash),
                "event": .integer(event.id),
                "digest": .string(DataDigests.eventDigest(key: try auditKey(), kind: kind, event: event)),
            ])
            return current
        }
    }

    /// The current database definition of every name that is not retired, by name: the
    /// "types added to the database" registry source.
    package func currentVersions(_ kind: DefinitionKind) throws -> [DefinitionVersion] {
        try backend.currentVersions(kind)
    }

    /// The current database definition of `name`, or nil (never added, or retired).
    package func currentVersion(_ kind: DefinitionKind, name: String) throws -> DefinitionVersion? {
        try backend.currentVersion(kind, name: name)
    }

    /// Every stored version of `name` (added or used by a run), oldest first.
    package func versions(_ kind: DefinitionKind, name: String) throws -> [DefinitionVersion] {
        try backend.versions(kind, name: name)
    }

    /// The adds and retirements of `name`, oldest first (`types history`).
    package func events(_ kind: DefinitionKind, name: String) throws -> [DefinitionEvent] {
        try backend.events(kind, name: name)
    }

    /// The version of `name` with that hash, if stored.
    package func version(_ kind: DefinitionKind, name: String, hash: String) throws -> DefinitionVersion? {
        try backend.version(kind, name: name, hash: hash)
    }

    /// The version with that row id (as referenced by runs).
    package func version(_ kind: DefinitionKind, id: Int64) throws -> DefinitionVersion? {
        try backend.version(kind, id: id)
    }

    // MARK: Private

    private func insertVersion(_ kind: DefinitionKind, name: String, hash: String, source: String,
                               origin: String, actor: String) throws -> DefinitionVersion {
        var version = DefinitionVersion(id: 0, kind: kind, name: name, hash: hash, source: source, origin: origin,
                                        recordedAt: timestamp(), actor: actor,
                                        secure: kind == .type && PluginSource.declaresSecure(typeSource: source,
                                                                                             file: "type \(name)"))
        version.id = try backend.insertVersion(version)
        return version
    }

    private func insertEvent(_ kind: DefinitionKind, name: String, action: DefinitionEvent.Action,
                             version: DefinitionVersion?, actor: String) throws -> DefinitionEvent {
        var event = DefinitionEvent(id: 0, name: name, action: action, version: version, at: timestamp(), actor: actor)
        event.id = try backend.insertEvent(kind, event)
        return event
    }
}
