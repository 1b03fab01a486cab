import FormularyRules
import FormularyJSON

/// Validation runs: writing a run (used by `FormularyKit`'s `ValidationRun`) and reading runs,
/// results and entry verdicts (for `validate`, `history`, `entries`, `report`).
///
/// A run's verdict on a passing entry is derived, not stored: an entry of form F was judged by
/// run R when `entry.id <= judged_through` of (R, F), and it passed when R has no
/// `run_results` row for it. The version judged is the one written by the newest import
/// `<= runs.last_import`.
extension Store {
    // MARK: Writing a run

    /// Marks runs recorded as `running` whose process is gone as `incomplete`, each with its
    /// audit record (action `validate`), and returns their ids. `validate` calls it first, so
    /// the database agrees with what readers already show.
    @discardableResult
    package func abandonDeadRuns(actor: String) throws -> [Int64] {
        try transaction {
            let running = try backend.runningRuns()
            var abandoned: [Int64] = []
            for (id, process) in running where !process.isAlive {
                let reason = "its process (pid \(process.pid) on \(process.host)) ended before the run did"
                try finishRun(id: id, status: .incomplete, error: reason, actor: actor, endedAt: nil)
                abandoned.append(id)
            }
            return abandoned
        }
    }

    /// Inserts a `running` run for this process; call inside ``transaction(_:)``, which should
    /// also open the readers' snapshots (the write lock keeps imports out meanwhile).
    /// Returns the run id; `startedAt` and `lastImport` are read now.
    /// `messages` is the digest of the translations the run's messages come from.
    package func insertRun(actor: String, today: String, locale: String? = nil,
                           messages: String? = nil) throws -> (id: Int64, startedAt: String, lastImport: Int64) {
        try insertRun(actor: actor, today: today, locale: locale, messages: messages, process: .current)
    }

    /// ``insertRun(actor:today:locale:)`` for another process: tests record a run whose process is gone.
    func insertRun(actor: String, today: String, locale: String? = nil, messages: String? = nil,
                   process: RunProcess) throws -> (id: Int64, startedAt: String, lastImport: Int64) {
        let startedAt = timestamp()
        let lastImport = try backend.lastImportID()
        let id = try backend.insertRun(RunRecord(id: 0, startedAt: startedAt, endedAt: nil, actor: actor, today: today,
                                                 lastImport: lastImport, status: .running, recordedStatus: .running,
                                                 error: nil, process: process, counts: RunCounts(), forms: [],
                                                 locale: locale, messages: messages))
        return (id, startedAt, lastImport)
    }

    /// Records that run `runID` judges form `formID` with that form version, up to `lastID`.
    package func insertRunForm(runID: Int64, formID: Int64, formVersionID: Int64, lastID: Int64) throws {
        try backend.insertRunForm(runID: runID, formID: formID, formVersionID: formVersionID, lastID: lastID)
    }

    /// Records the type version that judges `field` of form `formID` in run `runID`.
    package func insertRunFieldType(runID: Int64, formID: Int64, field: String, typeVersionID: Int64) throws {
        try backend.insertRunFieldType(runID: runID, formID: formID, field: field, typeVersionID: typeVersionID)
    }

    /// Appends the run's `validate.start` audit record: the digest of what it judges with
    /// (forms and their versions, the type version of each field). Call it in the transaction
    /// that inserted the run, after its forms and field types.
    package func recordRunStart(id: Int64, actor: String) throws {
        guard let plan = try runPlan(id) else { throw StoreError.corrupt("run \(id) is missing") }
        try appendAudit(actor: actor, action: AuditAction.runStart, subject: String(id), details: [
            "forms": .array(plan.run.forms.map { .string($0.form) }),
            "digest": .string(DataDigests.runStartDigest(key: try auditKey(), plan: plan)),
        ])
    }

    /// Ends a run: its status, end time and error, and its audit record (`validate`, subject
    /// the run id, details the counts and the digest of the run's rows). `written`, from the
    /// run's writer, saves reading a complete run's results back. Runs in its own transaction
    /// when there is none.
    package func finishRun(id: Int64, status: RunStatus, error: String?, actor: String,
                          written: WrittenResults? = nil) throws {
        try transaction {
            try finishRun(id: id, status: status, error: error, actor: actor, endedAt: timestamp(),
                          written: status == .complete ? written : nil)
        }
    }

    private func finishRun(id: Int64, status: RunStatus, error: String?, actor: String, endedAt: String?,
                           written: WrittenResults? = nil) throws {
        // Guarded: a run ends once, whichever process gets there first.
        guard try backend.endRun(id: id, status: status, endedAt: endedAt, error: error) else {
            throw StoreError.runEnded(id)
        }
        guard let plan = try runPlan(id) else { throw StoreError.corrupt("run \(id) is missing") }
        let run = plan.run
        let digest: String
        if let written, written.runID == id {
            let rules = try backend.ownRules(ofRun: id)
            digest = DataDigests.runDigest(key: try auditKey(), plan: plan, rules: rules,
                                           rejudged: try rejudged(plan), results: (written.hash, written.count))
        } else {
            // A run that stopped early may have fed its writer rows that never committed.
            guard let recomputed = try recomputeRun(id) else { throw StoreError.corrupt("run \(id) is missing") }
            digest = recomputed.full
        }
        var details: JSONObject = [
            "status": .string(status.rawValue),
            "entries_checked": .integer(run.counts.entriesChecked),
            "entries_invalid": .integer(run.counts.entriesInvalid),
            "entries_warned": .integer(run.counts.entriesWarned),
            "errors": .integer(run.counts.errors),
            "warnings": .integer(run.counts.warnings),
            "today": .string(run.today),
            "forms": .array(run.forms.map { .string($0.form) }),
            "digest": .string(digest),
        ]
        if let error { details["error"] = .string(error) }
        if run.entriesCarried > 0 { details["entries_carried"] = .integer(run.entriesCarried) }
        try appendAudit(actor: actor, action: AuditAction.runEnd, subject: String(id), details: .object(details))
    }

    /// A writer for the results of one run, with its statements prepared once. Use it from the
    /// thread that owns this store; wrap each batch (results, then ``RunResultWriter/progress(formID:judgedThrough:counts:)``)
    /// in ``transaction(_:)`` so that results and the progress marker commit together.
    package func runResultWriter(runID: Int64) throws -> RunResultWriter {
        try RunResultWriter(store: self, runID: runID)
    }

    // MARK: Incremental runs

    /// The newest complete run that judged form `formID` to its end: what a run may carry
    /// the form's unchanged results forward from. Interrupted runs never are.
    package func latestCompleteRun(formID: Int64) throws -> RunRecord? {
        try backend.latestCompleteRunID(formID: formID).flatMap { try run(id: $0) }
    }

    /// Ids of the entries of form `formID` up to `throughID` that an import changed after
    /// import `sinceImport`, ascending (read through an index, not a scan).
    package func changedEntryIDs(formID: Int64, throughID: Int64, sinceImport: Int64) throws -> [Int64] {
        try backend.changedEntryIDs(formID: formID, throughID: throughID, sinceImport: sinceImport)
    }

    // MARK: Reading runs

    /// Runs, newest first; only those that judged `form` when given; at most `limit`.
    package func runs(form: String? = nil, limit: Int? = nil) throws -> [RunRecord] {
        try backend.runHeaders(form: form, limit: limit).map(withForms)
    }

    /// The run with that id, or nil.
    package func run(id: Int64) throws -> RunRecord? {
        try backend.runHeader(id: id).map(withForms)
    }

    /// The newest run (that judged `form`, when given); with `completeOnly`, the newest
    /// complete one.
    package func latestRun(form: String? = nil, completeOnly: Bool = false) throws -> RunRecord? {
        for run in try runs(form: form) where !completeOnly || run.status == .complete {
            return run
        }
        return nil
    }

    /// The newest run before `runID` that judged `form` (for "newly failing / fixed").
    package func previousRun(before runID: Int64, form: String) throws -> RunRecord? {
        try backend.previousRunID(before: runID, form: form).flatMap { try run(id: $0) }
    }

    /// The distinct failed rules of a run (optionally of one form), by id: those its results
    /// point at, its own or those of a run whose results it shares.
    package func rules(ofRun runID: Int64, form: String? = nil) throws -> [RunRule] {
        let rules = try backend.rules(ofRun: runID, form: form)
        guard try backend.runForms(runID: runID).contains(where: { $0.sharesFrom != nil }) else { return rules }
        // A shared run's rule that only entries judged again had failed is not this run's.
        var used = Set<Int64>()
        try backend.forEachResultRow(ofRun: runID) { _, _, ruleID in used.insert(ruleID) }
        return rules.filter { used.contains($0.id) }
    }

    /// Calls `body` with every result of a run (optionally of one form), in entry id order,
    /// without loading them all: reports of large runs stream through this.
    package func forEachResult(ofRun runID: Int64, form: String? = nil,
                              _ body: (RunResult) throws -> Void) throws {
        var ruleByID: [Int64: RunRule] = [:]
        for rule in try backend.rules(ofRun: runID, form: form) { ruleByID[rule.id] = rule }
        try backend.forEachResultRow(ofRun: runID) { entryID, entryVersion, ruleID in
            guard let rule = ruleByID[ruleID] else { return }   // another form's
            try body(RunResult(runID: runID, entryID: entryID, entryVersion: entryVersion, rule: rule))
        }
    }

    /// Every result of a run (optionally of one form), in entry id order.
    package func results(ofRun runID: Int64, form: String? = nil) throws -> [RunResult] {
        var out: [RunResult] = []
        try forEachResult(ofRun: runID, form: form) { out.append($0) }
        return out
    }

    /// The failing entries of a run (errors or warnings), in id order, each with its failed
    /// rules: `entries list --failing` and reports.
    package func failingEntries(ofRun runID: Int64, form: String? = nil,
                               includeWarningsOnly: Bool = true) throws -> [FailingEntry] {
        var out: [FailingEntry] = []
        try forEachResult(ofRun: runID, form: form) { result in
            if let last = out.last, last.entryID == result.entryID {
                out[out.count - 1].results.append(result)
                if result.rule.severity == .error { out[out.count - 1].verdict = .invalid }
            } else {
                out.append(FailingEntry(entryID: result.entryID, entryVersion: result.entryVersion,
                                        verdict: result.rule.severity == .error ? .invalid : .warnings,
                                        results: [result]))
            }
        }
        return includeWarningsOnly ? out : out.filter { $0.verdict == .invalid }
    }

    /// Failures of a run counted by rule, field, type or entry, worst first (most errors, then
    /// most warnings, then key).
    package func resultGroups(ofRun runID: Int64, form: String? = nil,
                             by key: RunResultGroup.Key) throws -> [RunResultGroup] {
        var groups: [String: (errors: Int, warnings: Int, entries: Set<Int64>)] = [:]
        try forEachResult(ofRun: runID, form: form) { result in
            let name: String = switch key {
            case .rule: result.rule.rule
            case .field: result.rule.field ?? ""
            case .type: result.rule.type ?? ""
            case .entry: String(result.entryID)
            }
            var group = groups[name] ?? (0, 0, [])
            if result.rule.severity == .error { group.errors += 1 } else { group.warnings += 1 }
            group.entries.insert(result.entryID)
            groups[name] = group
        }
        return groups.map { RunResultGroup(key: $0.key, errors: $0.value.errors, warnings: $0.value.warnings,
                                           entries: $0.value.entries.count) }
            .sorted { ($0.errors, $0.warnings, $1.key) > ($1.errors, $1.warnings, $0.key) }
    }

    /// The type versions that judged each field in a run (optionally of one form).
    package func fieldTypes(ofRun runID: Int64, formID: Int64? = nil) throws -> [RunFieldType] {
        try backend.fieldTypes(ofRun: runID, formID: formID)
    }

    /// Every distinct (field, type version) that judged a field of form `name` in any run,
    /// by field then version id: what decides, with the registries, which stored values
    /// of the form are secret (a type version that was `secure` when it judged a field
    /// keeps that field masked whatever the registry says later).
    package func fieldTypes(ofForm name: String) throws -> [RunFieldType] {
        try backend.fieldTypes(ofForm: name)
    }

    /// The ids of the entries of form `formID` that run `runID` found invalid (at least one
    /// error-severity result), ascending.
    package func invalidEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        try backend.invalidEntryIDs(ofRun: runID, formID: formID)
    }

    // MARK: Entry verdicts

    /// Every run that judged the entry, oldest first, with its verdict, failed rules, the
    /// entry version judged and the type versions used (`history ENTRY`). Throws
    /// ``StoreError/noSuchEntry(_:)`` for an unknown id.
    package func runHistory(entryID: Int64) throws -> [EntryRunVerdict] {
        try verdicts(entryID: entryID, latestOnly: false)
    }

    /// The newest run's verdict on the entry, or nil when no run judged it (`entries show`).
    package func latestVerdict(entryID: Int64) throws -> EntryRunVerdict? {
        try verdicts(entryID: entryID, latestOnly: true).last
    }

    /// Ids of the entries that the newest run of each form (or of `form`) found invalid (or,
    /// with `includeWarningsOnly`, with any failed rule), ascending: `entries list --failing`.
    package func failingEntryIDs(form: String? = nil, includeWarningsOnly: Bool = false) throws -> [Int64] {
        var ids: [Int64] = []
        try forEachFailingEntryID(form: form, includeWarningsOnly: includeWarningsOnly) { ids.append($0); return true }
        return ids
    }

    /// ``failingEntryIDs(form:includeWarningsOnly:)`` one id at a time, without holding them
    /// (the database sorts and merges the forms' runs); stops when `body` returns false.
    package func forEachFailingEntryID(form: String? = nil, includeWarningsOnly: Bool = false,
                                      _ body: (Int64) throws -> Bool) throws {
        let forms = try form.map { [$0] } ?? formNamesWithEntries()
        var runs: [(runID: Int64, formID: Int64)] = []
        for name in forms {
            guard let run = try latestRun(form: name), let f = run.forms.first(where: { $0.form == name }) else { continue }
            runs.append((run.id, f.formID))
        }
        try backend.forEachFailingEntryID(runsByForm: runs, includeWarningsOnly: includeWarningsOnly, body)
    }

    private func verdicts(entryID: Int64, latestOnly: Bool) throws -> [EntryRunVerdict] {
        guard let entry = try backend.entry(id: entryID), let formID = try backend.formID(named: entry.form) else {
            throw StoreError.noSuchEntry(entryID)
        }
        let currentVersion = entry.version, currentWrittenIn = entry.updatedIn ?? entry.createdIn
        let runIDs = try backend.runIDs(judging: entryID, formID: formID)
        let earlier = try backend.earlierVersions(entryID: entryID)
        var out: [EntryRunVerdict] = []
        for runID in latestOnly ? Array(runIDs.suffix(1)) : runIDs {
            guard let run = try run(id: runID) else { continue }
            let results = try backend.results(ofRun: runID, entryID: entryID)
            let version: Int
            if let first = results.first {
                version = first.entryVersion
            } else if currentWrittenIn <= run.lastImport {
                version = currentVersion
            } else {
                version = earlier.first { $0.writtenIn <= run.lastImport && run.lastImport < $0.replacedIn }?.version
                    ?? currentVersion
            }
            let verdict: EntryVerdict = results.contains { $0.rule.severity == .error } ? .invalid
                : results.isEmpty ? .valid : .warnings
            out.append(EntryRunVerdict(run: run, entryID: entryID, entryVersion: version,
                                       isCurrentVersion: version == currentVersion, verdict: verdict,
                                       results: results, types: try fieldTypes(ofRun: runID, formID: formID)))
        }
        return out
    }

    // MARK: Private

    /// A run header with its forms, and with the status readers should take: a run recorded
    /// as `running` whose process is gone reads as incomplete.
    private func withForms(_ header: RunRecord) throws -> RunRecord {
        var run = header
        if run.recordedStatus == .running && !run.process.isAlive {
            run.status = .incomplete
            run.error = run.error ?? "its process (pid \(run.process.pid) on \(run.process.host)) ended before the run did"
        }
        run.forms = try backend.runForms(runID: run.id)
        return run
    }
}
