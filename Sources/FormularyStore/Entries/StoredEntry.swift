/// An entry as stored, decoded for display (`entries list`, `entries show`).
package struct StoredEntry: Sendable, Hashable {
    package var id: Int64
    package var form: String
    /// The import key, when the entry was imported with `--key`.
    package var key: String?
    /// The entry's columns, in the order they were imported (declared and unknown alike).
    package var fields: [String]
    /// One value per field; nil when absent.
    package var values: [String?]
    /// 1 for a new entry, +1 for each keyed update.
    package var version: Int
    /// When the import that created it ran (UTC ISO 8601).
    package var createdAt: String
    /// When a keyed import last changed it; equal to ``createdAt`` when never changed.
    package var updatedAt: String
    /// The imports that created and last changed it.
    package var createdIn: Int64
    package var updatedIn: Int64?

    /// The value of `field`, or nil when the entry has no such column or it is absent.
    package subscript(field: String) -> String? {
        guard let index = fields.firstIndex(of: field) else { return nil }
        return values[index]
    }

    /// The present values as (field, value) pairs, in column order.
    package var presentValues: [(field: String, value: String)] {
        zip(fields, values).compactMap { field, value in value.map { (field, $0) } }
    }
}

/// The values an entry had before a keyed import replaced them (`entry_versions`).
package struct StoredEntryVersion: Sendable, Hashable {
    package var entryID: Int64
    package var version: Int
    package var fields: [String]
    package var values: [String?]
    /// When the import that wrote this version ran.
    package var validFrom: String
    /// When the import that replaced it ran.
    package var replacedAt: String
}

/// What ``EntryWriter`` did with one row.
package enum EntryWriteOutcome: Sendable, Hashable {
    /// A new entry.
    case inserted(id: Int64)
    /// An existing entry with the same key got new values; the old ones went to its history.
    case updated(id: Int64, version: Int)
    /// An existing entry with the same key already had exactly these values.
    case unchanged(id: Int64)

    package var id: Int64 {
        switch self {
        case .inserted(let id), .updated(let id, _), .unchanged(let id): id
        }
    }
}
