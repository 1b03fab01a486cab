import FormularyJSON
import FormularyStore

/// What the database keeps of a name (`types history`): every add and retire, and the
/// versions validation runs recorded.
public struct HistoryService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// One thing that happened to a name.
    public struct DefinitionHistoryRow: JSONObjectRepresentable, Sendable {
        /// When (UTC).
        public var at: String
        /// Who.
        public var actor: String
        /// `add`, `retire`, or `used` (a version recorded because a validation run used it).
        public var action: String
        /// The version's SHA-256; empty for a retirement.
        public var hash: String
        /// Where the version came from (`database`, `builtin`, `folder:PATH`…).
        public var origin: String
        /// How the version differs from the one before it (`first version`, `+2 −1 lines`…).
        public var change: String

        /// `{"at", "actor", "action", "hash" (null for a retirement), "origin", "change"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("at", at)
            o.field("actor", actor)
            o.field("action", action)
            if hash.isEmpty { o.nullField("hash") } else { o.field("hash", hash) }
            o.field("origin", origin)
            o.field("change", change)
        }
    }

    /// Every event of the name, plus the versions only runs recorded, oldest first.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when the database has no history for it.
    public func history(_ kind: DefinitionKind, name: String) throws -> [DefinitionHistoryRow] {
        let store = try workspace.store(.read)
        let versions = try store.versions(kind.stored, name: name)
        let events = try store.events(kind.stored, name: name)
        guard !versions.isEmpty || !events.isEmpty else {
            throw ServiceError(.badInput,
                               "the database has no history for \(kind.rawValue) '\(name)'; only types added with 'types add' or used by a validation run have one")
        }
        var rows: [DefinitionHistoryRow] = []
        var previousSource: String?
        var eventVersionIDs = Set<Int64>()
        for event in events {
            if let v = event.version { eventVersionIDs.insert(v.id) }
            let change: String
            if let v = event.version {
                change = previousSource.map { Self.change(from: $0, to: v.source) } ?? "first version"
                previousSource = v.source
            } else {
                change = "hidden from the registry"
            }
            rows.append(DefinitionHistoryRow(at: event.at, actor: event.actor, action: event.action.rawValue,
                                             hash: event.version?.hash ?? "", origin: event.version?.origin ?? "",
                                             change: change))
        }
        for v in versions where !eventVersionIDs.contains(v.id) {
            rows.append(DefinitionHistoryRow(at: v.recordedAt, actor: v.actor, action: "used", hash: v.hash,
                                             origin: v.origin, change: "recorded by a validation run"))
        }
        rows.sort { $0.at < $1.at }
        return rows
    }

    /// "+2 −1 lines" between two canonical sources (a multiset difference of lines).
    static func change(from old: String, to new: String) -> String {
        var counts: [Substring: Int] = [:]
        for line in old.split(separator: "\n") { counts[line, default: 0] += 1 }
        var added = 0
        for line in new.split(separator: "\n") {
            if let c = counts[line], c > 0 { counts[line] = c - 1 } else { added += 1 }
        }
        let removed = counts.values.reduce(0, +)
        return added == 0 && removed == 0 ? "same definition" : "+\(added) −\(removed) lines"
    }
}
