import FormularyStore

// The values the services hand out are Kit's own, converted from the store's `package`
// ones at the service boundary: an app that links Kit names them without FormularyStore,
// and the store can change its rows without changing Kit's API. Reading one never touches
// the database.

/// The two kinds of versioned definitions: field types and forms.
public enum DefinitionKind: String, Sendable, Hashable {
    /// A field type (`.field`).
    case type
    /// A form (`.form`).
    case form

    package init(_ stored: FormularyStore.DefinitionKind) {
        self = switch stored {
        case .type: .type
        case .form: .form
        }
    }

    /// The store's kind, for calls into it.
    package var stored: FormularyStore.DefinitionKind {
        switch self {
        case .type: .type
        case .form: .form
        }
    }
}

/// One stored version of a field type or form, identified by the SHA-256 of its source.
public struct DefinitionVersion: Sendable, Hashable {
    /// The version's id in the database.
    public var id: Int64
    /// A type's or a form's.
    public var kind: DefinitionKind
    /// The type's or form's name.
    public var name: String
    /// SHA-256 hex of ``source``.
    public var hash: String
    /// The canonical source of the resolved definition.
    public var source: String
    /// Where it came from when first recorded: `database` for `types add`/`forms add`,
    /// otherwise the source of a version recorded because a validation run used it
    /// (`builtin`, `folder:PATH`…).
    public var origin: String
    /// When it was first recorded (UTC ISO 8601).
    public var recordedAt: String
    /// Who recorded it.
    public var actor: String
    /// For a type: whether the version is `secure` (values of fields it judges are never
    /// shown). Always false for a form.
    public var secure: Bool

    /// The first 12 hex digits, as shown in lists.
    public var shortHash: String { String(hash.prefix(12)) }

    package init(_ stored: FormularyStore.DefinitionVersion) {
        id = stored.id
        kind = DefinitionKind(stored.kind)
        name = stored.name
        hash = stored.hash
        source = stored.source
        origin = stored.origin
        recordedAt = stored.recordedAt
        actor = stored.actor
        secure = stored.secure
    }
}

/// What storing a definition did: a version made current, or nothing (already current).
public enum AddOutcome: Sendable, Hashable {
    /// The version became current. `isNewVersion` is false when an earlier version (or a
    /// version recorded by a run) came back; `previous` is the version it replaced, if any.
    case added(DefinitionVersion, isNewVersion: Bool, previous: DefinitionVersion?)
    /// That exact definition is already the current one: nothing was written.
    case unchanged(DefinitionVersion)

    /// The version that is current now.
    public var version: DefinitionVersion {
        switch self {
        case .added(let version, _, _), .unchanged(let version): version
        }
    }

    /// Whether the database changed.
    public var changedDatabase: Bool {
        if case .added = self { true } else { false }
    }

    package init(_ stored: FormularyStore.AddOutcome) {
        self = switch stored {
        case let .added(version, isNewVersion, previous):
            .added(DefinitionVersion(version), isNewVersion: isNewVersion, previous: previous.map(DefinitionVersion.init))
        case .unchanged(let version):
            .unchanged(DefinitionVersion(version))
        }
    }
}
