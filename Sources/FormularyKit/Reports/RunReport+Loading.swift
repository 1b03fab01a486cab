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
    /// Loads the report of a run from the database: its facts now, in one read transaction;
    /// its failures, groups and the summary parts that take a pass over them (comparisons,
    /// most frequent values, the previous run's counts) when they are first read, so that a
    /// renderer writes the facts before the first pass. Load and render in one read
    /// transaction (as ``ReportService`` does) to see a run still writing its batches at one
    /// consistent point.
    ///
    /// - Parameters:
    ///   - runID: the run; nil for the newest run (of `form`, when given).
    ///   - form: narrows the report to that form (facts, failures and comparison).
    ///   - secureFields: which stored values are secret (an entry key that is one is
    ///     flagged); by default decided without plugin folders (built-in and database types
    ///     and forms, and the type versions of the form's runs).
    ///   - summary: whether to count the summary (comparisons, most frequent values,
    ///     changes, recent runs); a CSV report, which shows only the failures, skips it.
    ///   - progress: hears each pass over the run's failures as it starts (on a large run
    ///     each takes seconds).
    ///   - flush: called before each pass, to hand on what the report has written so far.
    /// - Throws: ``RunReportError`` when there is no such run, or it did not judge `form`.
    package static func load(run runID: Int64? = nil, form: String? = nil, from store: Store,
                            secureFields: SecureFields? = nil, summary: Bool = true,
                            progress: ((ReportProgress) -> Void)? = nil,
                            flush: (() throws -> Void)? = nil) throws -> RunReport {
        try store.read {
            let secure = try secureFields ?? SecureFields(store: store, registry: Registry.load(folders: [], store: store))
            return try RunReportLoader(store: store, secureFields: secure, summary: summary,
                                       passes: ReportPasses(flush: flush, progress: progress))
                .load(runID: runID, form: form)
        }
    }
}

/// How far the making of a report has got, for a progress line: the passes the database
/// makes over a run's failures as the report is written (each announced as it starts).
public enum ReportProgress: Sendable, Equatable {
    /// Comparing run `run`'s failing entries with those of the previous run of `form`.
    case comparing(run: Int64, form: String, previousRun: Int64?)
    /// Counting the most frequent failing values of run `run`.
    case countingValues(run: Int64)
    /// Grouping, sorting and writing run `run`'s failures.
    case writing(run: Int64)
}

/// Builds a ``RunReport`` from the run tables: the facts now, the rows and the parts that
/// take a pass over them on demand.
struct RunReportLoader {
    let store: Store
    let secureFields: SecureFields
    var summary = true
    var passes = ReportPasses()

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

        // The previous run of each form: the one its failures are compared with.
        var compared: [String: ReportComparedRuns] = [:]
        var previousRunIDs: [Int64] = []
        for f in formRecords where summary {
            let previous = try store.previousRun(before: record.id, form: f.form)
            let previousForm = previous?.forms.first(where: { $0.formID == f.formID })
            // Without an earlier run, every failing entry is new (compared with run 0, which
            // judged nothing).
            let previousID = previousForm == nil ? 0 : previous!.id
            compared[f.form] = ReportComparedRuns(previous: previousID, previousThrough: previousForm?.judgedThrough ?? 0,
                                                  through: f.judgedThrough, formID: f.formID)
            if previousID != 0 && !previousRunIDs.contains(previousID) { previousRunIDs.append(previousID) }
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

        let counter = RunReportCounter(store: store, runID: record.id, forms: formRecords.map { ($0.form, $0.formID) },
                                       scopeFormID: scopeFormID, multiForm: multiForm, secrets: secrets,
                                       compared: compared, passes: passes)
        let rows = StoreReportRows(counter: counter, typeVersions: typeOfField.mapValues(\.hash))
        var previousCounts: [ReportGrouping: ReportPart<[String: Int]>] = [:]
        if !previousRunIDs.isEmpty {
            for grouping in [ReportGrouping.rule, .field] {
                previousCounts[grouping] = ReportPart { try counter.previousCounts(by: grouping) }
            }
        }
        return RunReport(
            facts: facts, scope: form,
            forms: formRecords.map {
                RunReport.FormUsed(name: $0.form, version: $0.formVersionHash,
                                   entriesChecked: $0.counts.entriesChecked, entriesFailing: $0.counts.entriesInvalid)
            },
            typeVersions: typeVersions, rows: rows,
            comparisons: summary ? ReportPart { try counter.comparisons() } : ReportPart([]),
            topValues: summary ? ReportPart { try counter.topValues() } : ReportPart([:]),
            previousCounts: previousCounts, previousRunIDs: previousRunIDs, recentRuns: recentRuns)
    }
}
