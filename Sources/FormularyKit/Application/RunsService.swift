import FormularyJSON
import FormularyStore

/// Validation runs as `runs list` lists them.
public struct RunsService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// One run: its id, when it started, who ran it, the forms it judged, its counts and status.
    public struct RunRow: JSONObjectRepresentable, Sendable {
        /// The run's id (`report --run ID`).
        public var id: Int64
        /// When it started (UTC ISO 8601).
        public var startedAt: String
        /// When it ended; nil while running or for a run whose process died.
        public var endedAt: String?
        /// Who ran it.
        public var actor: String
        /// The forms it judged, by name.
        public var forms: [String]
        /// Entries it judged (of the listed form, with `--form`).
        public var entriesChecked: Int
        /// Entries it found with at least one error.
        public var entriesFailing: Int
        /// `complete`, `incomplete` or `running`.
        public var status: String
        /// The locale its messages are in; nil for the types' own texts.
        public var locale: String?

        /// The failing share, `30.0%` (`—` when nothing was checked).
        public var failingPercent: String { ReportNumbers.percent(entriesFailing, of: entriesChecked) }

        /// `{"id", "started_at", "ended_at", "actor", "forms", "entries_checked",
        /// "entries_failing", "failing_percent", "status", "locale"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("id", Int(id))
            o.field("started_at", startedAt)
            if let endedAt { o.field("ended_at", endedAt) } else { o.nullField("ended_at") }
            o.field("actor", actor)
            o.array("forms") { a in for form in forms { a.value(form) } }
            o.field("entries_checked", entriesChecked)
            o.field("entries_failing", entriesFailing)
            o.field("failing_percent", RunReport.percentValue(entriesFailing, of: entriesChecked))
            o.field("status", status)
            if let locale { o.field("locale", locale) } else { o.nullField("locale") }
        }
    }

    /// Every run (of `form` when given), newest first; at most `limit` (0 for all).
    public func list(form: String?, limit: Int) throws -> [RunRow] {
        let store = try workspace.store(.read)
        return try store.runs(form: form, limit: limit > 0 ? limit : nil).map { run in
            let counts = form.flatMap { name in run.forms.first { $0.form == name }?.counts } ?? run.counts
            return RunRow(id: run.id, startedAt: run.startedAt, endedAt: run.endedAt, actor: run.actor,
                          forms: run.forms.map(\.form), entriesChecked: counts.entriesChecked,
                          entriesFailing: counts.entriesInvalid, status: run.status.rawValue, locale: run.locale)
        }
    }
}
