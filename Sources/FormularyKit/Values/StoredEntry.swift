import FormularyStore

/// One stored entry of a form: its id, key, values and version.
public struct StoredEntry: Sendable, Hashable {
    /// The entry's id (`entries show ID`, `history ID`).
    public var id: Int64
    /// The form it belongs to.
    public var form: String
    /// The import key, when the entry was imported with `--key`.
    public var key: String?
    /// The entry's columns, in the order they were imported (declared and unknown alike).
    public var fields: [String]
    /// One value per field; nil when absent.
    public var values: [String?]
    /// 1 for a new entry, +1 for each keyed update.
    public var version: Int
    /// When the import that created it ran (UTC ISO 8601).
    public var createdAt: String
    /// When a keyed import last changed it; equal to ``createdAt`` when never changed.
    public var updatedAt: String

    /// The value of `field`, or nil when the entry has no such column or it is absent.
    public subscript(field: String) -> String? {
        guard let index = fields.firstIndex(of: field) else { return nil }
        return values[index]
    }

    package init(_ stored: FormularyStore.StoredEntry) {
        id = stored.id
        form = stored.form
        key = stored.key
        fields = stored.fields
        values = stored.values
        version = stored.version
        createdAt = stored.createdAt
        updatedAt = stored.updatedAt
    }
}

/// Where one version of an entry came from: the import (or `canonicalize`) that wrote it.
public struct EntryVersionOrigin: Sendable, Hashable {
    /// The entry version (1 for the values it was created with).
    public var version: Int
    /// When it was written (UTC ISO 8601).
    public var at: String
    /// Who wrote it.
    public var actor: String
    /// The import's source: a file name, `-` for standard input, or `canonicalize`.
    public var source: String

    package init(_ stored: FormularyStore.EntryVersionOrigin) {
        version = stored.version
        at = stored.at
        actor = stored.actor
        source = stored.source
    }
}
