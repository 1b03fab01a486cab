/// The two kinds of versioned definitions the database keeps.
package enum DefinitionKind: String, Sendable, Hashable {
    case type
    case form

    /// Prefix of audit actions: `types.add`, `forms.retire`.
    var auditNoun: String { self == .type ? "types" : "forms" }
}

/// One stored version of a field type or form, identified by the SHA-256 of its source.
package struct DefinitionVersion: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, kind: DefinitionKind, name: String, hash: String, source: String, origin: String, recordedAt: String, actor: String, secure: Bool = false) {
        self.id = id
        self.kind = kind
        self.name = name
        self.hash = hash
        self.source = source
        self.origin = origin
        self.recordedAt = recordedAt
        self.actor = actor
        self.secure = secure
    }

    package var id: Int64
    package var kind: DefinitionKind
    package var name: String
    /// SHA-256 hex of ``source``.
    package var hash: String
    /// The canonical source of the resolved definition.
    package var source: String
    /// Where it came from when first recorded: `database` for `types add`/`forms add`,
    /// otherwise the source of a version recorded because a validation run used it
    /// (`builtin`, `folder:PATH`…).
    package var origin: String
    /// When it was first recorded (UTC ISO 8601).
    package var recordedAt: String
    package var actor: String
    /// For a type: whether the version is `secure` (values of fields it judges are never
    /// shown). Always false for a form.
    package var secure: Bool = false

    /// The first 12 hex digits, as shown in lists.
    package var shortHash: String { String(hash.prefix(12)) }
}

/// Something that happened to a name in the database registry.
package struct DefinitionEvent: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, name: String, action: Action, version: DefinitionVersion?, at: String, actor: String) {
        self.id = id
        self.name = name
        self.action = action
        self.version = version
        self.at = at
        self.actor = actor
    }

    package enum Action: String, Sendable, Hashable {
        /// A version became the current database definition of the name.
        case add
        /// The name was hidden from the registry.
        case retire
    }
    package var id: Int64
    package var name: String
    package var action: Action
    /// The version added; nil for a retirement.
    package var version: DefinitionVersion?
    package var at: String
    package var actor: String
}

/// What ``Store/addVersion(_:name:source:actor:)`` did.
package enum AddOutcome: Sendable, Hashable {
    /// The version became current. `isNewVersion` is false when an earlier version (or a
    /// version recorded by a run) came back; `previous` is the version it replaced, if any.
    case added(DefinitionVersion, isNewVersion: Bool, previous: DefinitionVersion?)
    /// That exact definition is already the current one: nothing was written.
    case unchanged(DefinitionVersion)

    package var version: DefinitionVersion {
        switch self {
        case .added(let version, _, _), .unchanged(let version): version
        }
    }

    package var changedDatabase: Bool {
        if case .added = self { true } else { false }
    }
}
