import FormularyStore

/// Where a validation run stands.
public enum RunStatus: String, Sendable, Hashable {
    /// Its process is still judging entries.
    case running
    /// Every entry it set out to judge was judged.
    case complete
    /// It stopped early (an error, or its process died): the batches it committed stand,
    /// the rest of the entries were not judged by it.
    case incomplete

    package init(_ stored: FormularyStore.RunStatus) {
        self = switch stored {
        case .running: .running
        case .complete: .complete
        case .incomplete: .incomplete
        }
    }
}

/// The entry and violation counts of a validation run, or of one form in it.
public struct RunCounts: Sendable, Hashable {
    /// Entries judged (carried forward ones included).
    public var entriesChecked: Int
    /// Entries with at least one error.
    public var entriesInvalid: Int
    /// Entries with warnings and no error.
    public var entriesWarned: Int
    /// Failed rules of error severity.
    public var errors: Int
    /// Failed rules of warning severity.
    public var warnings: Int

    /// Counts as given (all zero by default).
    public init(entriesChecked: Int = 0, entriesInvalid: Int = 0, entriesWarned: Int = 0, errors: Int = 0, warnings: Int = 0) {
        self.entriesChecked = entriesChecked
        self.entriesInvalid = entriesInvalid
        self.entriesWarned = entriesWarned
        self.errors = errors
        self.warnings = warnings
    }

    /// Entries with no failed rule.
    public var entriesValid: Int { entriesChecked - entriesInvalid - entriesWarned }

    package init(_ stored: FormularyStore.RunCounts) {
        self.init(entriesChecked: stored.entriesChecked, entriesInvalid: stored.entriesInvalid,
                  entriesWarned: stored.entriesWarned, errors: stored.errors, warnings: stored.warnings)
    }
}

/// One form judged by a validation run.
public struct RunFormRecord: Sendable, Hashable {
    /// The form's name.
    public var form: String
    /// The hash of the form version the run used.
    public var formVersionHash: String
    /// The form's counts in the run.
    public var counts: RunCounts
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from
    /// ``carriedFrom`` instead of being judged again (0 when the form was judged in full).
    public var entriesCarried: Int
    /// The complete run the form's unchanged entries were carried forward from, if any.
    public var carriedFrom: Int64?

    /// The entries this run judged itself: checked minus carried forward.
    public var entriesJudged: Int { counts.entriesChecked - entriesCarried }

    package init(_ stored: FormularyStore.RunFormRecord) {
        form = stored.form
        formVersionHash = stored.formVersionHash
        counts = RunCounts(stored.counts)
        entriesCarried = stored.entriesCarried
        carriedFrom = stored.carriedFrom
    }
}

/// A recorded validation run: when, by whom, its "today", status, counts, forms.
public struct RunRecord: Sendable, Hashable {
    /// The run's id (`report --run ID`).
    public var id: Int64
    /// When it started (UTC ISO 8601).
    public var startedAt: String
    /// When it ended; nil while running, and for a run whose process died.
    public var endedAt: String?
    /// Who ran it.
    public var actor: String
    /// The "today" (YYYY-MM-DD) date checks used.
    public var today: String
    /// The locale the run's messages are in (`de`, `pt-BR`), as the run was made with
    /// (`--locale`…); nil for the types' own texts.
    public var locale: String?
    /// The status as readers should take it: a run recorded as `running` whose process is
    /// gone is ``RunStatus/incomplete``.
    public var status: RunStatus
    /// Why the run is incomplete, when known.
    public var error: String?
    /// The counts over every form.
    public var counts: RunCounts
    /// Each form the run judged.
    public var forms: [RunFormRecord]
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from an
    /// earlier complete run (see ``RunFormRecord/carriedFrom``).
    public var entriesCarried: Int

    /// The entries this run judged itself: checked minus carried forward.
    public var entriesJudged: Int { counts.entriesChecked - entriesCarried }

    package init(_ stored: FormularyStore.RunRecord) {
        id = stored.id
        startedAt = stored.startedAt
        endedAt = stored.endedAt
        actor = stored.actor
        today = stored.today
        locale = stored.locale
        status = RunStatus(stored.status)
        error = stored.error
        counts = RunCounts(stored.counts)
        forms = stored.forms.map(RunFormRecord.init)
        entriesCarried = stored.entriesCarried
    }
}
