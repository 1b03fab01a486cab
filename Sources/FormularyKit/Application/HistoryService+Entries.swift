import FormularyJSON
import FormularyStore

extension HistoryService {
    /// Every validation run that judged an entry, as `history ENTRY` shows them.
    public struct EntryHistory: JSONObjectRepresentable, Sendable {
        /// The entry.
        public var entry: StoredEntry
        /// Its key as it may be shown; nil without one.
        public var key: String?
        /// The runs that judged it, oldest first.
        public var runs: [EntryRunVerdict]
        /// Who wrote each of its versions (an import, or `canonicalize`), oldest first.
        public var versions: [EntryVersionOrigin] = []

        /// `{"entry", "form", "key"?, "current_version", "versions": [{"version", "at",
        /// "actor", "source"}], "runs": [{"run", "started_at", "status", "today",
        /// "entry_version", "is_current_version", "verdict", "failures", "types"}]}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("entry", Int(entry.id))
            o.field("form", entry.form)
            o.fieldIfPresent("key", key)
            o.field("current_version", entry.version)
            o.array("versions") { a in
                for v in versions {
                    a.object { vo in
                        vo.field("version", v.version)
                        vo.field("at", v.at)
                        vo.field("actor", v.actor)
                        vo.field("source", v.source)
                    }
                }
            }
            o.array("runs") { a in
                for h in runs {
                    a.object { ro in
                        ro.field("run", Int(h.run.id))
                        ro.field("started_at", h.run.startedAt)
                        ro.field("status", h.run.status.rawValue)
                        ro.field("today", h.run.today)
                        ro.field("entry_version", h.entryVersion)
                        ro.field("is_current_version", h.isCurrentVersion)
                        ro.field("verdict", h.verdict.rawValue)
                        ro.array("failures") { fa in
                            for r in h.results {
                                fa.object { fo in
                                    if let f = r.rule.field { fo.field("field", f) } else { fo.nullField("field") }
                                    fo.field("rule", r.rule.rule)
                                    fo.field("severity", r.rule.severity.rawValue)
                                    fo.field("message", r.rule.message)
                                }
                            }
                        }
                        ro.array("types") { ta in
                            for t in h.types {
                                ta.object { to in
                                    to.field("field", t.field)
                                    to.field("type", t.version.name)
                                    to.field("version", t.version.hash)
                                    to.field("origin", t.version.origin)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The runs that judged entry `id`, read in one snapshot with the entry.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when no entry has that id.
    public func history(entry id: Int64) throws -> EntryHistory {
        let store = try workspace.store(.read)
        let (stored, runs, versions) = try store.read { () throws -> (FormularyStore.StoredEntry?, [FormularyStore.EntryRunVerdict], [FormularyStore.EntryVersionOrigin]) in
            guard let entry = try store.entry(id: id) else { return (nil, [], []) }
            return (entry, try store.runHistory(entryID: id), try store.entryVersionOrigins(id: id))
        }
        guard let stored else { throw workspace.noSuchEntry(id) }
        let entry = StoredEntry(stored)
        let key = try SecureKeys(workspace: workspace, store: store).shownKey(of: entry)
        return EntryHistory(entry: entry, key: key, runs: runs.map(EntryRunVerdict.init),
                            versions: versions.map(EntryVersionOrigin.init))
    }
}
