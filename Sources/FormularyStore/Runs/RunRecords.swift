import FormularyRules
/// Typed records of validation runs (tables `runs`, `run_forms`, `run_type_versions`,
/// `run_rules`, `run_results`), as ``Store`` reads them. See docs/storage.md.

/// Where a run stands.
public enum RunStatus: String, Sendable, Hashable {
    /// Its process is still judging entries.
    case running
    /// Every entry it set out to judge was judged.
    case complete
    /// It stopped early (an error, or its process died): the batches it committed stand,
    /// the rest of the entries were not judged by it.
    case incomplete
}

/// Entry and violation counts of a run, or of one form in a run.
public struct RunCounts: Sendable, Hashable {
    public var entriesChecked = 0
    /// Entries with at least one error.
    public var entriesInvalid = 0
    /// Entries with warnings and no error.
    public var entriesWarned = 0
    /// Failed rules of error severity.
    public var errors = 0
    /// Failed rules of warning severity.
    public var warnings = 0

    public init(entriesChecked: Int = 0, entriesInvalid: Int = 0, entriesWarned: Int = 0,
                errors: Int = 0, warnings: Int = 0) {
        self.entriesChecked = entriesChecked
        self.entriesInvalid = entriesInvalid
        self.entriesWarned = entriesWarned
        self.errors = errors
        self.warnings = warnings
    }

    /// Entries with no failed rule.
    public var entriesValid: Int { entriesChecked - entriesInvalid - entriesWarned }

    public static func += (lhs: inout RunCounts, rhs: RunCounts) {
        lhs.entriesChecked += rhs.entriesChecked
        lhs.entriesInvalid += rhs.entriesInvalid
        lhs.entriesWarned += rhs.entriesWarned
        lhs.errors += rhs.errors
        lhs.warnings += rhs.warnings
    }
}

/// One form judged by a run.
public struct RunFormRecord: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(formID: Int64, form: String, formVersionID: Int64, formVersionHash: String, lastID: Int64, judgedThrough: Int64, counts: RunCounts, entriesCarried: Int = 0, carriedFrom: Int64? = nil, sharesFrom: Int64? = nil) {
        self.formID = formID
        self.form = form
        self.formVersionID = formVersionID
        self.formVersionHash = formVersionHash
        self.lastID = lastID
        self.judgedThrough = judgedThrough
        self.counts = counts
        self.entriesCarried = entriesCarried
        self.carriedFrom = carriedFrom
        self.sharesFrom = sharesFrom
    }

    public var formID: Int64
    public var form: String
    /// The form version (row of `form_versions`) the run used.
    public var formVersionID: Int64
    public var formVersionHash: String
    /// The highest entry id when the run started: the run set out to judge the form's
    /// entries with ids up to it.
    public var lastID: Int64
    /// Every entry of the form with `id <= judgedThrough` was judged by the run.
    public var judgedThrough: Int64
    public var counts: RunCounts
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from
    /// ``carriedFrom`` instead of being judged again (0 when the form was judged in full).
    public var entriesCarried: Int = 0
    /// The complete run the form's unchanged entries were carried forward from, if any.
    public var carriedFrom: Int64? = nil
    /// The run whose stored results of the form this run shares instead of holding copies
    /// (a run that judged the form in full: ``carriedFrom`` or the run it shared from); nil
    /// when the run holds all its results of the form itself.
    public var sharesFrom: Int64? = nil

    /// The entries this run judged itself: checked minus carried forward.
    public var entriesJudged: Int { counts.entriesChecked - entriesCarried }

    /// Whether the run judged every entry of the form it set out to.
    public var isFinished: Bool { judgedThrough >= lastID }
}

/// One validation run.
public struct RunRecord: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, startedAt: String, endedAt: String?, actor: String, today: String, lastImport: Int64, status: RunStatus, recordedStatus: RunStatus, error: String?, process: RunProcess, counts: RunCounts, forms: [RunFormRecord], entriesCarried: Int = 0) {
        self.id = id
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.actor = actor
        self.today = today
        self.lastImport = lastImport
        self.status = status
        self.recordedStatus = recordedStatus
        self.error = error
        self.process = process
        self.counts = counts
        self.forms = forms
        self.entriesCarried = entriesCarried
    }

    public var id: Int64
    public var startedAt: String
    /// Nil while running, and for a run whose process died.
    public var endedAt: String?
    public var actor: String
    /// The "today" (YYYY-MM-DD) date checks used.
    public var today: String
    /// The newest import (`imports.id`) when the run started.
    public var lastImport: Int64
    /// The status as readers should take it: a run recorded as `running` whose process is
    /// gone is ``RunStatus/incomplete``.
    public var status: RunStatus
    /// The status as written in the database.
    public var recordedStatus: RunStatus
    /// Why the run is incomplete, when known.
    public var error: String?
    public var process: RunProcess
    public var counts: RunCounts
    public var forms: [RunFormRecord]
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from an
    /// earlier complete run (see ``RunFormRecord/carriedFrom``).
    public var entriesCarried: Int = 0

    /// The entries this run judged itself: checked minus carried forward.
    public var entriesJudged: Int { counts.entriesChecked - entriesCarried }
}

/// One distinct failed rule of a run (table `run_rules`).
public struct RunRule: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, formID: Int64, form: String, field: String?, type: String?, rule: String, severity: Severity, message: String) {
        self.id = id
        self.formID = formID
        self.form = form
        self.field = field
        self.type = type
        self.rule = rule
        self.severity = severity
        self.message = message
    }

    public var id: Int64
    public var formID: Int64
    public var form: String
    /// The field it concerns; nil for a rule of the whole entry.
    public var field: String?
    /// The field's type; nil for cross-field rules and `unknown-field`.
    public var type: String?
    public var rule: String
    public var severity: Severity
    /// The engine's message; never holds a secure value.
    public var message: String
}

/// One failed rule of one entry in one run.
public struct RunResult: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(runID: Int64, entryID: Int64, entryVersion: Int, rule: RunRule) {
        self.runID = runID
        self.entryID = entryID
        self.entryVersion = entryVersion
        self.rule = rule
    }

    public var runID: Int64
    public var entryID: Int64
    /// The entry version that was judged.
    public var entryVersion: Int
    public var rule: RunRule
}

/// A failing entry of a run (errors or warnings) and its failed rules.
public struct FailingEntry: Sendable, Hashable {
    public var entryID: Int64
    public var entryVersion: Int
    public var verdict: EntryVerdict
    public var results: [RunResult]
}

/// The type version that judged a field in a run.
public struct RunFieldType: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(formID: Int64, field: String, version: DefinitionVersion) {
        self.formID = formID
        self.field = field
        self.version = version
    }

    public var formID: Int64
    public var field: String
    public var version: DefinitionVersion
}

/// Failures of a run counted by one key (a rule, a field, a type or an entry), for reports.
public struct RunResultGroup: Sendable, Hashable {
    public enum Key: String, Sendable, Hashable, CaseIterable {
        case rule, field, type, entry
    }
    /// The rule name, field, type, or entry id in decimal; "" for results without a field
    /// (or type).
    public var key: String
    public var errors: Int
    public var warnings: Int
    /// Distinct entries among these failures.
    public var entries: Int
}

/// How one run judged one entry: a line of `history ENTRY`.
public struct EntryRunVerdict: Sendable, Hashable {
    public var run: RunRecord
    public var entryID: Int64
    /// The entry version judged.
    public var entryVersion: Int
    /// Whether that version is still the entry's current one.
    public var isCurrentVersion: Bool
    public var verdict: EntryVerdict
    /// The failed rules (empty for a valid entry: its verdict is derived, not stored).
    public var results: [RunResult]
    /// The type versions that judged the entry's form's fields in this run.
    public var types: [RunFieldType]
}
