import FormularyRules
import FormularyStore

/// Why a report cannot be made. Each is a usage problem (exit status 2): the database is
/// fine, it just has no such run.
package enum RunReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No validation run was recorded yet.
    case noRuns
    case noSuchRun(Int64)
    /// No run judged this form.
    case noRunOfForm(String)
    /// The chosen run did not judge this form.
    case formNotInRun(run: Int64, form: String, forms: [String])

    /// What is missing and what to run.
    package var description: String {
        switch self {
        case .noRuns:
            "no validation run yet; run 'formulary validate' first"
        case .noSuchRun(let id):
            "no validation run with id \(id)"
        case .noRunOfForm(let form):
            "no validation run judged form '\(form)'"
        case let .formNotInRun(run, form, forms):
            "run \(run) did not judge form '\(form)'"
                + (forms.isEmpty ? "" : "; it judged: " + forms.joined(separator: ", "))
        }
    }
}

extension RunReport {
    /// Loads the report of a run from the database, in one read transaction so that a run
    /// still writing its batches is seen at one consistent point.
    ///
    /// - Parameters:
    ///   - runID: the run; nil for the newest run (of `form`, when given).
    ///   - form: narrows the report to that form (facts, failures and comparison).
    ///   - secureFields: which stored values are secret (an entry key that is one is
    ///     flagged); by default decided without plugin folders (built-in and database types
    ///     and forms, and the type versions of the form's runs).
    ///   - summary: whether to count the summary (comparisons, most frequent values,
    ///     changes, recent runs); a CSV report, which shows only the failures, skips it.
    /// - Throws: ``RunReportError`` when there is no such run, or it did not judge `form`.
    ///   - progress: hears each pass over the run's failures as it starts (on a large run
    ///     each takes seconds).
    package static func load(run runID: Int64? = nil, form: String? = nil, from store: Store,
                            secureFields: SecureFields? = nil, summary: Bool = true,
                            progress: ((ReportProgress) -> Void)? = nil) throws -> RunReport {
        try store.read {
            let secure = try secureFields ?? SecureFields(store: store, registry: Registry.load(folders: [], store: store))
            return try RunReportLoader(store: store, secureFields: secure, summary: summary, progress: progress)
                .load(runID: runID, form: form)
        }
    }
}

/// How far the making of a report has got, for a progress line: the passes the database
/// makes over a run's failures before the first row can be written, then the writing.
public enum ReportProgress: Sendable, Equatable {
    /// Comparing run `run`'s failing entries with those of the previous run of `form`.
    case comparing(run: Int64, form: String, previousRun: Int64?)
    /// Counting the most frequent failing values of run `run`.
    case countingValues(run: Int64)
    /// Grouping, sorting and writing run `run`'s failures.
    case writing(run: Int64)
}

/// Builds a ``RunReport`` from the run tables: the summary now, the rows on demand.
struct RunReportLoader {
    let store: Store
    let secureFields: SecureFields
    var summary = true
    var progress: ((ReportProgress) -> Void)? = nil

    /// How many newly failing and fixed entries the model keeps per form (the JSON report
    /// streams the rest from the database).
    static let comparisonPreview = 1000

    func load(runID: Int64?, form: String?) throws -> RunReport {
        let record: FormularyStore.RunRecord
        if let runID {
            guard let r = try store.run(id: runID) else { throw RunReportError.noSuchRun(runID) }
            record = r
        } else if let form {
            guard let r = try store.latestRun(form: form) else { throw RunReportError.noRunOfForm(form) }
            record = r
        } else {
            guard let r = try store.latestRun() else { throw RunReportError.noRuns }
            record = r
        }

        var formRecords = record.forms
        if let form {
            formRecords = formRecords.filter { $0.form == form }
            if formRecords.isEmpty {
                throw RunReportError.formNotInRun(run: record.id, form: form, forms: record.forms.map(\.form))
            }
        }
        let formIDs = Set(formRecords.map(\.formID))
        let scopeFormID = form == nil ? nil : formRecords[0].formID
        let multiForm = formRecords.count > 1
        let counts = form == nil ? record.counts : formRecords[0].counts
        let facts = RunReport.Facts(
            runID: record.id, startedAt: record.startedAt, endedAt: record.endedAt, actor: record.actor,
            today: record.today, status: record.status.rawValue, entriesChecked: counts.entriesChecked,
            entriesFailing: counts.entriesInvalid, entriesWarned: counts.entriesWarned,
            errors: counts.errors, warnings: counts.warnings, error: record.error, locale: record.locale)

        // The type version that judged each field.
        var typeOfField: [String: FormularyStore.DefinitionVersion] = [:]
        for fieldType in try store.fieldTypes(ofRun: record.id) where formIDs.contains(fieldType.formID) {
            typeOfField["\(fieldType.formID)\u{1F}\(fieldType.field)"] = fieldType.version
        }
        var seenVersions: Set<Int64> = []
        let typeVersions = typeOfField.values
            .filter { seenVersions.insert($0.id).inserted }
            .sorted { ($0.name, $0.hash) < ($1.name, $1.hash) }
            .map { RunReport.TypeVersionUsed(name: $0.name, version: $0.hash, origin: $0.origin) }

        // Secret fields of each form, by the rule every output follows (``SecureFields``);
        // the database also masks a field whose judging type version was secure.
        var byForm: [Int64: Set<String>?] = [:]
        for f in formRecords { byForm[f.formID] = try secureFields.of(form: f.form).fields }
        let secrets = ReportSecrets(byForm: byForm, mask: RunReport.secureMask)

        // Comparison with the previous run of each form, on entries with errors: counted and
        // listed (the first ones) by the database.
        var comparisons: [RunReport.Comparison] = []
        var compared: [String: (previous: Int64, previousThrough: Int64, through: Int64, formID: Int64)] = [:]
        var previousCounts: [ReportGrouping: [String: Int]] = [:]
        var previousRunIDs: [Int64] = []
        for f in formRecords where summary {
            let previous = try store.previousRun(before: record.id, form: f.form)
            let previousForm = previous?.forms.first(where: { $0.formID == f.formID })
            // Without an earlier run, every failing entry is new (compared with run 0, which
            // judged nothing).
            let previousID = previousForm == nil ? 0 : previous!.id
            let previousThrough = previousForm?.judgedThrough ?? 0
            progress?(.comparing(run: record.id, form: f.form, previousRun: previousID == 0 ? nil : previousID))
            compared[f.form] = (previousID, previousThrough, f.judgedThrough, f.formID)
            if previousID != 0 && !previousRunIDs.contains(previousID) { previousRunIDs.append(previousID) }
            var newly: [RunReport.Comparison.NewlyFailing] = []
            let newlyCount = try store.forEachComparedEntry(
                runID: record.id, previousRunID: previousID, formID: f.formID, newly: true,
                previousJudgedThrough: previousThrough, judgedThrough: f.judgedThrough, secrets: secrets,
                limit: Self.comparisonPreview) { row in
                newly.append(.init(entry: Self.ref(row, secrets), before: row.judgedBefore ? .passed : .notJudged))
            }
            guard previousID != 0 else {
                comparisons.append(RunReport.Comparison(form: f.form, previousRunID: nil, newlyFailing: newly, fixed: [],
                                                        newlyFailingCount: newlyCount, fixedCount: 0))
                continue
            }
            var fixed: [RunReport.EntryRef] = []
            let fixedCount = try store.forEachComparedEntry(
                runID: record.id, previousRunID: previousID, formID: f.formID, newly: false,
                previousJudgedThrough: previousThrough, judgedThrough: f.judgedThrough, secrets: secrets,
                limit: Self.comparisonPreview) { row in
                fixed.append(Self.ref(row, secrets))
            }
            comparisons.append(RunReport.Comparison(form: f.form, previousRunID: previousID, newlyFailing: newly,
                                                    fixed: fixed, newlyFailingCount: newlyCount, fixedCount: fixedCount))
            for grouping in [ReportGrouping.rule, .field] {
                let before = try store.reportGroupCounts(runID: previousID, formID: f.formID, multiForm: multiForm,
                                                         by: StoreReportRows.key(grouping))
                previousCounts[grouping, default: [:]].merge(before, uniquingKeysWith: +)
            }
        }

        // The most frequent failing values of each rule and field, counted by the database.
        var topValues: [ReportGrouping: [String: [RunReport.ValueCount]]] = [:]
        if summary { progress?(.countingValues(run: record.id)) }
        for grouping in [ReportGrouping.rule, .field] where summary {
            for v in try store.reportTopValues(runID: record.id, formID: scopeFormID, multiForm: multiForm,
                                               secrets: secrets, by: StoreReportRows.key(grouping)) {
                topValues[grouping, default: [:]][v.key, default: []].append(.init(value: v.value, count: v.count))
            }
        }

        // The recent runs of the same form(s), for the history chart and links.
        var recentRuns: [RunReport.RunSummary] = []
        for run in try store.runs(form: form, limit: 40) where summary && run.id <= record.id {
            let share = form == nil ? run.counts : (run.forms.first { $0.form == form }?.counts ?? run.counts)
            recentRuns.append(.init(id: run.id, startedAt: run.startedAt, status: run.status.rawValue,
                                    entriesChecked: share.entriesChecked, entriesFailing: share.entriesInvalid))
            if recentRuns.count == 20 { break }
        }
        recentRuns.reverse()

        progress?(.writing(run: record.id))
        let rows = StoreReportRows(store: store, runID: record.id, formID: scopeFormID, multiForm: multiForm,
                                   secrets: secrets, typeVersions: typeOfField.mapValues(\.hash), compared: compared)
        return RunReport(
            facts: facts, scope: form,
            forms: formRecords.map {
                RunReport.FormUsed(name: $0.form, version: $0.formVersionHash,
                                   entriesChecked: $0.counts.entriesChecked, entriesFailing: $0.counts.entriesInvalid)
            },
            typeVersions: typeVersions, rows: rows, comparisons: comparisons, topValues: topValues,
            previousCounts: previousCounts, previousRunIDs: previousRunIDs, recentRuns: recentRuns)
    }

    static func ref(_ row: ReportEntryRow, _ secrets: ReportSecrets) -> RunReport.EntryRef {
        RunReport.EntryRef(id: row.entryID, key: row.key, keyIsSecure: row.key != nil && row.key == secrets.mask)
    }
}
