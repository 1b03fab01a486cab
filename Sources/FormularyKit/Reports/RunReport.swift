import FormularyRules

/// Everything a report of one validation run shows: the run's facts, what failed, and how
/// that compares with the previous run of the same form.
///
/// The model holds the run's summary (facts, forms, counts, the most frequent failing
/// values, changes against the previous run, the recent runs); the failures themselves and
/// their groups come from ``rows`` one at a time, so that a report of hundreds of thousands
/// of failures is rendered without holding them (a loaded report reads them from the
/// database, aggregated there; one built by hand in a test holds them in memory). The parts
/// of the summary that take a pass over the failures of their own (the comparisons, the most
/// frequent values, the previous run's counts) are counted when a renderer first reaches
/// them, so that a report starts writing at once. Secret values and keys arrive already
/// masked as ``RunReport/secureMask``.
package struct RunReport {
    /// What is printed in place of a secret value.
    package static let secureMask = "•••"

    /// The run itself, or its share for one form when the report is narrowed to a form.
    package struct Facts: Sendable, Hashable {
        /// The run's id.
        package var runID: Int64
        /// When the run started (ISO 8601, UTC).
        package var startedAt: String
        /// Nil while the run is still going (or was interrupted before it could finish).
        package var endedAt: String?
        /// Who started the run.
        package var actor: String
        /// The "today" (YYYY-MM-DD) the date checks used.
        package var today: String
        /// The locale the messages are in; nil for the types' own texts.
        package var locale: String?
        /// `running`, `complete` or `incomplete`.
        package var status: String
        /// Entries judged (of the narrowed form only, when narrowed).
        package var entriesChecked: Int
        /// Entries with at least one error-severity failure.
        package var entriesFailing: Int
        /// Entries with warnings and no error.
        package var entriesWarned: Int
        /// Failed rules with error severity, over all entries.
        package var errors: Int
        /// Failed rules with warning severity, over all entries.
        package var warnings: Int
        /// Why an incomplete run stopped, when known.
        package var error: String?

        /// Makes the facts of a run.
        package init(runID: Int64, startedAt: String, endedAt: String?, actor: String, today: String,
                    status: String, entriesChecked: Int, entriesFailing: Int, entriesWarned: Int = 0,
                    errors: Int, warnings: Int, error: String? = nil, locale: String? = nil) {
            self.runID = runID
            self.startedAt = startedAt
            self.endedAt = endedAt
            self.actor = actor
            self.today = today
            self.status = status
            self.entriesChecked = entriesChecked
            self.entriesFailing = entriesFailing
            self.entriesWarned = entriesWarned
            self.errors = errors
            self.warnings = warnings
            self.error = error
            self.locale = locale
        }
    }

    /// A form the run judged, with the version of it that was used.
    package struct FormUsed: Sendable, Hashable {
        /// The form's name.
        package var name: String
        /// SHA-256 hex of the form's canonical source.
        package var version: String
        /// Entries of this form the run judged.
        package var entriesChecked: Int
        /// Entries of this form with at least one error.
        package var entriesFailing: Int

        /// Makes a form entry of the report.
        package init(name: String, version: String, entriesChecked: Int, entriesFailing: Int) {
            self.name = name
            self.version = version
            self.entriesChecked = entriesChecked
            self.entriesFailing = entriesFailing
        }
    }

    /// A field type version the run used.
    package struct TypeVersionUsed: Sendable, Hashable {
        /// The type's name.
        package var name: String
        /// SHA-256 hex of the type's resolved canonical source.
        package var version: String
        /// Where the version was first recorded from: `builtin`, `database`, `folder:PATH`….
        package var origin: String

        /// Makes a type version entry of the report.
        package init(name: String, version: String, origin: String) {
            self.name = name
            self.version = version
            self.origin = origin
        }
    }

    /// An entry as reports name it: its id and, when it was imported with `--key`, its key.
    package struct EntryRef: Sendable, Hashable, Comparable {
        /// The entry's id in the database.
        package var id: Int64
        /// The entry's record key, if it was imported with `--key`.
        package var key: String?
        /// The key is the value of a `secure` field: it must never be printed.
        package var keyIsSecure: Bool

        /// Makes an entry reference.
        package init(id: Int64, key: String? = nil, keyIsSecure: Bool = false) {
            self.id = id
            self.key = key
            self.keyIsSecure = keyIsSecure
        }

        /// The key as it may be shown: ``RunReport/secureMask`` for a secret one.
        package var displayKey: String? {
            guard let key else { return nil }
            return keyIsSecure ? RunReport.secureMask : key
        }

        /// Entries sort by id, the order they were first imported in.
        package static func < (a: EntryRef, b: EntryRef) -> Bool { a.id < b.id }
    }

    /// One failed rule of one entry.
    package struct Failure: Sendable, Hashable {
        /// The entry that failed.
        package var entry: EntryRef
        /// The form the entry belongs to.
        package var form: String
        /// The field the failure concerns (for `same`, the second field; for `require`, the
        /// missing one); nil for a rule about the whole entry.
        package var field: String?
        /// The field's type, by name (`age`) or as the form names it (`age(min: 18)`); nil
        /// for cross-field rules and for fields the form does not declare (`unknown-field`).
        package var type: String?
        /// The version (hash) of that type the run used, when known.
        package var typeVersion: String?
        /// The failed rule's name.
        package var rule: String
        /// Error or warning.
        package var severity: Severity
        /// The rule's message; never holds a secure value.
        package var message: String
        /// The value of ``field`` in the entry version judged (``RunReport/secureMask`` for a
        /// secret one); nil for a rule of the whole entry or an absent value.
        package var value: String?
        /// `FILE:LINE` of the import that wrote the entry version judged; nil when unknown.
        package var source: String?

        /// Makes a failure.
        package init(entry: EntryRef, form: String, field: String?, type: String?, typeVersion: String? = nil,
                    rule: String, severity: Severity, message: String, value: String? = nil, source: String? = nil) {
            self.entry = entry
            self.form = form
            self.field = field
            self.type = type
            self.typeVersion = typeVersion
            self.rule = rule
            self.severity = severity
            self.message = message
            self.value = value
            self.source = source
        }

        /// The bare type name, without arguments (`age(min: 18)` → `age`).
        package var typeName: String? {
            guard let type else { return nil }
            return type.firstIndex(of: "(").map { String(type[..<$0]) } ?? type
        }
    }

    /// How this run's verdicts on one form differ from the previous run of that form.
    package struct Comparison: Sendable, Hashable {
        /// Why an entry counts as newly failing.
        package enum Before: String, Sendable, Hashable {
            /// The previous run judged it and found no error.
            case passed
            /// The previous run did not judge it (imported since, or the run stopped early).
            case notJudged = "not-judged"
        }

        /// An entry with an error now and none before, with why it counts as new.
        package struct NewlyFailing: Sendable, Hashable {
            /// The entry.
            package var entry: EntryRef
            /// What the previous run said of it.
            package var before: Before
            /// Makes a newly failing entry.
            package init(entry: EntryRef, before: Before) {
                self.entry = entry
                self.before = before
            }
        }

        /// The form compared.
        package var form: String
        /// Nil when no earlier run judged this form: everything failing is then new.
        package var previousRunID: Int64?
        /// Entries with an error now that had none in the previous run, by id.
        package var newlyFailing: [NewlyFailing]
        /// Entries with an error in the previous run that this run judged and found without one,
        /// by id (setting it sets the count).
        package var fixed: [EntryRef] { didSet { fixedCount = fixed.count } }
        /// How many entries are newly failing in all (``newlyFailing`` may hold only the first ones).
        package var newlyFailingCount: Int
        /// How many entries are fixed in all (``fixed`` may hold only the first ones).
        package var fixedCount: Int

        /// Makes a comparison; the counts default to the lists' lengths (lists that are whole).
        package init(form: String, previousRunID: Int64?, newlyFailing: [NewlyFailing], fixed: [EntryRef],
                    newlyFailingCount: Int? = nil, fixedCount: Int? = nil) {
            self.form = form
            self.previousRunID = previousRunID
            self.newlyFailing = newlyFailing
            self.fixed = fixed
            self.newlyFailingCount = newlyFailingCount ?? newlyFailing.count
            self.fixedCount = fixedCount ?? fixed.count
        }

        /// Whether the lists hold every entry (else the rest comes from ``RunReport/rows``).
        package var isWhole: Bool { newlyFailing.count == newlyFailingCount && fixed.count == fixedCount }
    }

    /// The run's facts (narrowed to ``scope`` when set).
    package var facts: Facts
    /// The form the report is narrowed to (`--form`), or nil for the whole run.
    package var scope: String?
    /// The forms the run judged, by name.
    package var forms: [FormUsed]
    /// The type versions the run used, by name.
    package var typeVersions: [TypeVersionUsed]
    /// Where the failures, their groups and compared entries come from, one at a time.
    package var rows: any RunReportRows
    /// The comparisons, one per form of ``forms`` (see ``comparisons``).
    var comparisonsPart: ReportPart<[Comparison]>
    /// The most frequent failing values (see ``topValues``).
    var topValuesPart: ReportPart<[ReportGrouping: [String: [ValueCount]]]>
    /// The previous run's counts of each grouping that has them (see ``previousCounts``).
    var previousCountsParts: [ReportGrouping: ReportPart<[String: Int]>]
    /// The run(s) compared against, when there is one (for "51 → 38, −13").
    package var previousRunIDs: [Int64]
    /// The recent runs of the same form(s), oldest first, this one last (at most 20).
    package var recentRuns: [RunSummary]

    /// Makes a report from its parts, every failure in memory (a test, or a small run).
    package init(facts: Facts, scope: String? = nil, forms: [FormUsed], typeVersions: [TypeVersionUsed],
                failures: [Failure], comparisons: [Comparison],
                topValues: [ReportGrouping: [String: [ValueCount]]] = [:],
                previousCounts: [ReportGrouping: [String: Int]] = [:], previousRunIDs: [Int64] = [],
                recentRuns: [RunSummary] = []) {
        self.init(facts: facts, scope: scope, forms: forms, typeVersions: typeVersions,
                  rows: InMemoryReportRows(failures: failures, multiForm: forms.count > 1),
                  comparisons: ReportPart(comparisons), topValues: ReportPart(topValues),
                  previousCounts: previousCounts.mapValues { ReportPart($0) },
                  previousRunIDs: previousRunIDs, recentRuns: recentRuns)
    }

    /// Makes a report whose failures come from `rows` and whose summary parts are counted
    /// when first read (a loader).
    init(facts: Facts, scope: String?, forms: [FormUsed], typeVersions: [TypeVersionUsed],
         rows: any RunReportRows, comparisons: ReportPart<[Comparison]>,
         topValues: ReportPart<[ReportGrouping: [String: [ValueCount]]]>,
         previousCounts: [ReportGrouping: ReportPart<[String: Int]>],
         previousRunIDs: [Int64], recentRuns: [RunSummary]) {
        self.facts = facts
        self.scope = scope
        self.forms = forms
        self.typeVersions = typeVersions
        self.rows = rows
        self.comparisonsPart = comparisons
        self.topValuesPart = topValues
        self.previousCountsParts = previousCounts
        self.previousRunIDs = previousRunIDs
        self.recentRuns = recentRuns
    }

    /// Every failed rule, in entry order, collected from ``rows``: for tests and small runs
    /// (renderers stream instead).
    package var failures: [Failure] {
        get {
            var out: [Failure] = []
            try? rows.forEachFailure(groupedBy: nil) { out.append($0); return true }
            return out
        }
        set { rows = InMemoryReportRows(failures: newValue, multiForm: forms.count > 1) }
    }

    /// The failing entries in id order, each with its failures in the order recorded.
    package var failuresByEntry: [(entry: EntryRef, failures: [Failure])] {
        var order: [Int64] = []
        var byID: [Int64: [Failure]] = [:]
        for failure in failures {
            if byID[failure.entry.id] == nil { order.append(failure.entry.id) }
            byID[failure.entry.id, default: []].append(failure)
        }
        return order.sorted().map { id in (byID[id]![0].entry, byID[id]!) }
    }
}

/// A report is handed between threads whole but read from one at a time; its ``RunReport/rows``
/// and summary parts (a store connection, or immutable arrays) are never used from two
/// threads at once.
extension RunReport: @unchecked Sendable {}
