import FormularyRules
/// Typed records of validation runs (tables `runs`, `run_forms`, `run_type_versions`,
/// `run_rules`, `run_results`), as ``Store`` reads them. See docs/storage.md.

/// Where a run stands.
package enum RunStatus: String, Sendable, Hashable {
    /// Its process is still judging entries.
    case running
    /// Every entry it set out to judge was judged.
    case complete
    /// It stopped early (an error, or its process died): the batches it committed stand,
    /// the rest of the entries were not judged by it.
    case incomplete
}

/// Entry and violation counts of a run, or of one form in a run.
package struct RunCounts: Sendable, Hashable {
    package var entriesChecked = 0
    /// Entries with at least one error.
    package var entriesInvalid = 0
    /// Entries with warnings and no error.
    package var entriesWarned = 0
    /// Failed rules of error severity.
    package var errors = 0
    /// Failed rules of warning severity.
    package var warnings = 0

    package init(entriesChecked: Int = 0, entriesInvalid: Int = 0, entriesWarned: Int = 0,
                errors: Int = 0, warnings: Int = 0) {
        self.entriesChecked = entriesChecked
        self.entriesInvalid = entriesInvalid
        self.entriesWarned = entriesWarned
        self.errors = errors
        self.warnings = warnings
    }

    /// Entries with no failed rule.
    package var entriesValid: Int { entriesChecked - entriesInvalid - entriesWarned }

    package static func += (lhs: inout RunCounts, rhs: RunCounts) {
        lhs.entriesChecked += rhs.entriesChecked
        lhs.entriesInvalid += rhs.entriesInvalid
        lhs.entriesWarned += rhs.entriesWarned
        lhs.errors += rhs.errors
        lhs.warnings += rhs.warnings
    }
}

/// One form judged by a run.
package struct RunFormRecord: Sendable, Hashable {
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

    package var formID: Int64
    package var form: String
    /// The form version (row of `form_versions`) the run used.
    package var formVersionID: Int64
    package var formVersionHash: String
    /// The highest entry id when the run started: the run set out to judge the form's
    /// entries with ids up to it.
    package var lastID: Int64
    /// Every entry of the form with `id <= judgedThrough` was judged by the run.
    package var judgedThrough: Int64
    package var counts: RunCounts
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from
    /// ``carriedFrom`` instead of being judged again (0 when the form was judged in full).
    package var entriesCarried: Int = 0
    /// The complete run the form's unchanged entries were carried forward from, if any.
    package var carriedFrom: Int64? = nil
    /// The run whose stored results of the form this run shares instead of holding copies
    /// (a run that judged the form in full: ``carriedFrom`` or the run it shared from); nil
    /// when the run holds all its results of the form itself.
    package var sharesFrom: Int64? = nil

    /// The entries this run judged itself: checked minus carried forward.
    package var entriesJudged: Int { counts.entriesChecked - entriesCarried }

    /// Whether the run judged every entry of the form it set out to.
    package var isFinished: Bool { judgedThrough >= lastID }
}

/// One validation run.
package struct RunRecord: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(id: Int64, startedAt: String, endedAt: String?, actor: String, today: String, lastImport: Int64, status: RunStatus, recordedStatus: RunStatus, error: String?, process: RunProcess, counts: RunCounts, forms: [RunFormRecord], entriesCarried: Int = 0, locale: String? = nil, messages: String? = nil) {
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
        self.locale = locale
        self.messages = messages
    }

    package var id: Int64
    package var startedAt: String
    /// Nil while running, and for a run whose process died.
    package var endedAt: String?
    package var actor: String
    /// The "today" (YYYY-MM-DD) date checks used.
    package var today: String
    /// The newest import (`imports.id`) when the run started.
    package var lastImport: Int64
    /// The status as readers should take it: a run recorded as `running` whose process is
    /// gone is ``RunStatus/incomplete``.
    package var status: RunStatus
    /// The status as written in the database.
    package var recordedStatus: RunStatus
    /// Why the run is incomplete, when known.
    package var error: String?
    package var process: RunProcess
    package var counts: RunCounts
    package var forms: [RunFormRecord]
    /// Of `counts.entriesChecked`, the entries whose results were carried forward from an
    /// earlier complete run (see ``RunFormRecord/carriedFrom``).
    package var entriesCarried: Int = 0
    /// The locale the run's messages are in (`de`, `pt-BR`); nil for the types' own texts.
    package var locale: String?
    /// The SHA-256 of the translations the run's messages came from (its locale's merged
    /// catalogs); nil without a locale, and for runs before migration 14.
    package var messages: String?

    /// The entries this run judged itself: checked minus carried forward.
    package var entriesJudged: Int { counts.entriesChecked - entriesCarried }
}

/// One distinct failed rule of a run (table `run_rules`).
package struct RunRule: Sendable, Hashable {
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

    package var id: Int64
    package var formID: Int64
    package var form: String
    /// The field it concerns; nil for a rule of the whole entry.
    package var field: String?
    /// The field's type; nil for cross-field rules and `unknown-field`.
    package var type: String?
    package var rule: String
    package var severity: Severity
    /// The engine's message; never holds a secure value.
    package var message: String
}

/// One failed rule of one entry in one run.
package struct RunResult: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(runID: Int64, entryID: Int64, entryVersion: Int, rule: RunRule) {
        self.runID = runID
        self.entryID = entryID
        self.entryVersion = entryVersion
        self.rule = rule
    }

    package var runID: Int64
    package var entryID: Int64
    /// The entry version that was judged.
    package var entryVersion: Int
    package var rule: RunRule
}

/// A failing entry of a run (errors or warnings) and its failed rules.
package struct FailingEntry: Sendable, Hashable {
    package var entryID: Int64
    package var entryVersion: Int
    package var verdict: EntryVerdict
    package var results: [RunResult]
}

/// The type version that judged a field in a run.
package struct RunFieldType: Sendable, Hashable {
    /// A value as a backend reads it from its rows.
    package init(formID: Int64, field: String, version: DefinitionVersion) {
        self.formID = formID
        self.field = field
        self.version = version
    }

    package var formID: Int64
    package var field: String
    package var version: DefinitionVersion
}

/// Failures of a run counted by one key (a rule, a field, a type or an entry), for reports.
package struct RunResultGroup: Sendable, Hashable {
    package enum Key: String, Sendable, Hashable, CaseIterable {
        case rule, field, type, entry
    }
    /// The rule name, field, type, or entry id in decimal; "" for results without a field
    /// (or type).
    package var key: String
    package var errors: Int
    package var warnings: Int
    /// Distinct entries among these failures.
    package var entries: Int
}

/// How one run judged one entry: a line of `history ENTRY`.
package struct EntryRunVerdict: Sendable, Hashable {
    package var run: RunRecord
    package var entryID: Int64
    /// The entry version judged.
    package var entryVersion: Int
    /// Whether that version is still the entry's current one.
    package var isCurrentVersion: Bool
    package var verdict: EntryVerdict
    /// The failed rules (empty for a valid entry: its verdict is derived, not stored).
    package var results: [RunResult]
    /// The type versions that judged the entry's form's fields in this run.
    package var types: [RunFieldType]
}
