import FormularyRules
import FormularyStore

/// Why a report cannot be made. Each is a usage problem (exit status 2): the database is
/// fine, it just has no such run.
public enum RunReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No validation run was recorded yet.
    case noRuns
    case noSuchRun(Int64)
    /// No run judged this form.
    case noRunOfForm(String)
    /// The chosen run did not judge this form.
    case formNotInRun(run: Int64, form: String, forms: [String])

    /// What is missing and what to run.
    public var description: String {
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
    /// - Throws: ``RunReportError`` when there is no such run, or it did not judge `form`.
    package static func load(run runID: Int64? = nil, form: String? = nil, from store: Store,
                            secureFields: SecureFields? = nil) throws -> RunReport {
        try store.read {
            let secure = try secureFields ?? SecureFields(store: store, registry: Registry.load(folders: [], store: store))
            return try RunReportLoader(store: store, secureFields: secure).load(runID: runID, form: form)
        }
    }
}

/// Builds a ``RunReport`` from the run tables.
struct RunReportLoader {
    let store: Store
    let secureFields: SecureFields

    private struct FieldKey: Hashable {
        var formID: Int64
        var field: String
    }

    func load(runID: Int64?, form: String?) throws -> RunReport {
        let record: RunRecord
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
        let counts = form == nil ? record.counts : formRecords[0].counts
        let facts = RunReport.Facts(
            runID: record.id, startedAt: record.startedAt, endedAt: record.endedAt, actor: record.actor,
            today: record.today, status: record.status.rawValue, entriesChecked: counts.entriesChecked,
            entriesFailing: counts.entriesInvalid, entriesWarned: counts.entriesWarned,
            errors: counts.errors, warnings: counts.warnings, error: record.error)

        // The type version that judged each field.
        var typeOfField: [FieldKey: DefinitionVersion] = [:]
        for fieldType in try store.fieldTypes(ofRun: record.id) where formIDs.contains(fieldType.formID) {
            typeOfField[FieldKey(formID: fieldType.formID, field: fieldType.field)] = fieldType.version
        }
        var seenVersions: Set<Int64> = []
        let typeVersions = typeOfField.values
            .filter { seenVersions.insert($0.id).inserted }
            .sorted { ($0.name, $0.hash) < ($1.name, $1.hash) }
            .map { RunReport.TypeVersionUsed(name: $0.name, version: $0.hash, origin: $0.origin) }

        // Failures stream in (entry order) and become the model directly: a big run has
        // hundreds of thousands of them, so no second copy is kept.
        var failures: [RunReport.Failure] = []
        var formOfEntry: [Int64: Int64] = [:]
        var failingNow: [Int64: [Int64]] = [:]   // form id → entries with an error, ascending
        try store.forEachResult(ofRun: record.id, form: form) { r in
            guard formIDs.contains(r.rule.formID) else { return }
            let version = r.rule.type != nil
                ? r.rule.field.flatMap { typeOfField[FieldKey(formID: r.rule.formID, field: $0)]?.hash } : nil
            failures.append(RunReport.Failure(
                entry: RunReport.EntryRef(id: r.entryID), form: r.rule.form, field: r.rule.field, type: r.rule.type,
                typeVersion: version, rule: r.rule.rule, severity: r.rule.severity,
                message: r.rule.message))
            formOfEntry[r.entryID] = r.rule.formID
            if r.rule.severity == .error && failingNow[r.rule.formID]?.last != r.entryID {
                failingNow[r.rule.formID, default: []].append(r.entryID)
            }
        }

        // Comparison with the previous run of each form, on entries with errors.
        var comparisons: [RunReport.Comparison] = []
        for f in formRecords {
            let previous = try store.previousRun(before: record.id, form: f.form)
            let previousForm = previous?.forms.first { $0.formID == f.formID }
            let failingBefore = try previous.map { try store.invalidEntryIDs(ofRun: $0.id, formID: f.formID) } ?? []
            let comparison = RunReport.Comparison.compare(
                form: f.form, previousRunID: previous?.id,
                failingNow: (failingNow[f.formID] ?? []).map { RunReport.EntryRef(id: $0) },
                failingBefore: failingBefore.map { RunReport.EntryRef(id: $0) },
                previousJudgedThrough: previousForm?.judgedThrough, judgedThrough: f.judgedThrough)
            for n in comparison.newlyFailing { formOfEntry[n.entry.id] = f.formID }
            for e in comparison.fixed { formOfEntry[e.id] = f.formID }
            comparisons.append(comparison)
        }

        // Keys, for forms whose entries have them; a key that is the value of a secure
        // field (by ``SecureFields``, the rule every output follows) is flagged so that no
        // renderer prints it.
        var refs: [Int64: RunReport.EntryRef] = [:]
        for f in formRecords {
            guard try store.hasKeyedEntries(formID: f.formID) else { continue }
            let ids = formOfEntry.filter { $0.value == f.formID }.map(\.key).sorted()
            let secure = try secureFields.of(form: f.form)
            for (id, key) in try store.entryKeys(ids) {
                var keyIsSecure = false
                if secure.fields?.isEmpty != true, let entry = try store.entry(id: id) {
                    keyIsSecure = secure.keyIsSecret(key, of: entry)
                }
                refs[id] = RunReport.EntryRef(id: id, key: key, keyIsSecure: keyIsSecure)
            }
        }
        if !refs.isEmpty {
            for i in failures.indices {
                if let ref = refs[failures[i].entry.id] { failures[i].entry = ref }
            }
            func ref(_ id: Int64) -> RunReport.EntryRef { refs[id] ?? RunReport.EntryRef(id: id) }
            for c in comparisons.indices {
                comparisons[c].newlyFailing = comparisons[c].newlyFailing.map { .init(entry: ref($0.entry.id), before: $0.before) }
                comparisons[c].fixed = comparisons[c].fixed.map { ref($0.id) }
            }
        }

        return RunReport(
            facts: facts, scope: form,
            forms: formRecords.map {
                RunReport.FormUsed(name: $0.form, version: $0.formVersionHash,
                                   entriesChecked: $0.counts.entriesChecked, entriesFailing: $0.counts.entriesInvalid)
            },
            typeVersions: typeVersions, failures: failures, comparisons: comparisons)
    }
}
