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
    public func abandonDeadRuns(actor: String) throws -> [Int64] {
        try transaction {
            let running = try database.cachedStatement(
                "SELECT id, host, pid, process_start FROM runs WHERE status = 'running' ORDER BY id")
                .map { ($0.int64(0), RunProcess(host: $0.string(1), pid: $0.int64(2), start: $0.string(3))) }
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
    public func insertRun(actor: String, today: String) throws -> (id: Int64, startedAt: String, lastImport: Int64) {
        try insertRun(actor: actor, today: today, process: .current)
    }

    /// ``insertRun(actor:today:)`` for another process: tests record a run whose process is gone.
    func insertRun(actor: String, today: String, process: RunProcess) throws -> (id: Int64, startedAt: String, lastImport: Int64) {
        let startedAt = timestamp()
        let lastImport = try database.scalarInt64("SELECT coalesce(max(id), 0) FROM imports") ?? 0
        try database.execute("""
            INSERT INTO runs (started_at, actor, today, last_import, status, host, pid, process_start)
            VALUES (?, ?, ?, ?, 'running', ?, ?, ?)
            """, [.text(startedAt), .text(actor), .text(today), .integer(lastImport),
                  .text(process.host), .integer(process.pid), .text(process.start)])
        return (database.lastInsertRowID, startedAt, lastImport)
    }

    /// The lowest and highest entry ids (0, 0 without entries): the id space a run goes
    /// through. Both ends of the rowid B-tree, so it costs nothing however many entries.
    public func entryIDBounds() throws -> (firstID: Int64, lastID: Int64) {
        // Two subqueries: SQLite answers a lone min() or max() from the B-tree's ends, but
        // scans the whole table for both in one.
        let statement = try database.cachedStatement(
            "SELECT coalesce((SELECT min(id) FROM entries), 0), coalesce((SELECT max(id) FROM entries), 0)")
        return try statement.first { ($0.int64(0), $0.int64(1)) } ?? (0, 0)
    }

    /// Records that run `runID` judges form `formID` with that form version, up to `lastID`.
    public func insertRunForm(runID: Int64, formID: Int64, formVersionID: Int64, lastID: Int64) throws {
        try database.execute("""
            INSERT INTO run_forms (run_id, form_id, form_version_id, last_id) VALUES (?, ?, ?, ?)
            """, [.integer(runID), .integer(formID), .integer(formVersionID), .integer(lastID)])
    }

    /// Records the type version that judges `field` of form `formID` in run `runID`.
    public func insertRunFieldType(runID: Int64, formID: Int64, field: String, typeVersionID: Int64) throws {
        try database.execute("""
            INSERT INTO run_type_versions (run_id, form_id, field, type_version_id) VALUES (?, ?, ?, ?)
            """, [.integer(runID), .integer(formID), .text(field), .integer(typeVersionID)])
    }

    /// Appends the run's `validate.start` audit record: the digest of what it judges with
    /// (forms and their versions, the type version of each field). Call it in the transaction
    /// that inserted the run, after its forms and field types.
    public func recordRunStart(id: Int64, actor: String) throws {
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
    public func finishRun(id: Int64, status: RunStatus, error: String?, actor: String,
                          written: WrittenResults? = nil) throws {
        try transaction {
            try finishRun(id: id, status: status, error: error, actor: actor, endedAt: timestamp(),
                          written: status == .complete ? written : nil)
        }
    }

    private func finishRun(id: Int64, status: RunStatus, error: String?, actor: String, endedAt: String?,
                           written: WrittenResults? = nil) throws {
        try database.execute("UPDATE runs SET status = ?, ended_at = ?, error = ? WHERE id = ?",
                             [.text(status.rawValue), .text(endedAt), .text(error), .integer(id)])
        guard let plan = try runPlan(id) else { throw StoreError.corrupt("run \(id) is missing") }
        let run = plan.run
        let digest: String
        if let written, written.runID == id {
            let rules = try self.rules(ofRun: id)
            digest = DataDigests.runDigest(key: try auditKey(), plan: plan, rules: rules,
                                           results: (written.hash, written.count))
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
        try appendAudit(actor: actor, action: AuditAction.runEnd, subject: String(id), details: .object(details))
    }

    /// A writer for the results of one run, with its statements prepared once. Use it from the
    /// thread that owns this store; wrap each batch (results, then ``RunResultWriter/progress(formID:judgedThrough:counts:)``)
    /// in ``transaction(_:)`` so that results and the progress marker commit together.
    public func runResultWriter(runID: Int64) throws -> RunResultWriter {
        try RunResultWriter(store: self, runID: runID)
    }

    // MARK: Reading runs

    /// Runs, newest first; only those that judged `form` when given; at most `limit`.
    public func runs(form: String? = nil, limit: Int? = nil) throws -> [RunRecord] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.runColumns) FROM runs AS r
            WHERE ?1 IS NULL OR EXISTS (SELECT 1 FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
                                        WHERE rf.run_id = r.id AND f.name = ?1)
            ORDER BY r.id DESC LIMIT ?2
            """)
        try statement.bind([.text(form), .integer(Int64(limit ?? -1))])
        let rows = try statement.map { Self.runHeader(from: $0) }
        return try rows.map { try withForms($0) }
    }

    /// The run with that id, or nil.
    public func run(id: Int64) throws -> RunRecord? {
        let statement = try database.cachedStatement("SELECT \(Self.runColumns) FROM runs AS r WHERE r.id = ?")
        try statement.bind([.integer(id)])
        guard let header = try statement.first({ Self.runHeader(from: $0) }) else { return nil }
        return try withForms(header)
    }

    /// The newest run (that judged `form`, when given); with `completeOnly`, the newest
    /// complete one.
    public func latestRun(form: String? = nil, completeOnly: Bool = false) throws -> RunRecord? {
        for run in try runs(form: form) where !completeOnly || run.status == .complete {
            return run
        }
        return nil
    }

    /// The newest run before `runID` that judged `form` (for "newly failing / fixed").
    public func previousRun(before runID: Int64, form: String) throws -> RunRecord? {
        let id = try database.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            WHERE f.name = ? AND rf.run_id < ?
            """, [.text(form), .integer(runID)])
        return try id.flatMap { try run(id: $0) }
    }

    /// The distinct failed rules of a run (optionally of one form), by id.
    public func rules(ofRun runID: Int64, form: String? = nil) throws -> [RunRule] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = ?1 AND (?2 IS NULL OR f.name = ?2) ORDER BY rr.id
            """)
        try statement.bind([.integer(runID), .text(form)])
        return try statement.map { Self.rule(from: $0, at: 0) }
    }

    /// Calls `body` with every result of a run (optionally of one form), in entry id order,
    /// without loading them all: reports of large runs stream through this.
    public func forEachResult(ofRun runID: Int64, form: String? = nil,
                              _ body: (RunResult) throws -> Void) throws {
        var ruleByID: [Int64: RunRule] = [:]
        for rule in try self.rules(ofRun: runID, form: form) { ruleByID[rule.id] = rule }
        let statement = try database.cachedStatement("""
            SELECT entry_id, entry_version, rule_id FROM run_results WHERE run_id = ? ORDER BY entry_id, rule_id
            """)
        try statement.bind([.integer(runID)])
        try statement.forEachRow { row in
            guard let rule = ruleByID[row.int64(2)] else { return }   // another form's
            try body(RunResult(runID: runID, entryID: row.int64(0), entryVersion: row.int(1), rule: rule))
        }
    }

    /// Every result of a run (optionally of one form), in entry id order.
    public func results(ofRun runID: Int64, form: String? = nil) throws -> [RunResult] {
        var out: [RunResult] = []
        try forEachResult(ofRun: runID, form: form) { out.append($0) }
        return out
    }

    /// The failing entries of a run (errors or warnings), in id order, each with its failed
    /// rules: `entries list --failing` and reports.
    public func failingEntries(ofRun runID: Int64, form: String? = nil,
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
    public func resultGroups(ofRun runID: Int64, form: String? = nil,
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
    public func fieldTypes(ofRun runID: Int64, formID: Int64? = nil) throws -> [RunFieldType] {
        let statement = try database.cachedStatement("""
            SELECT rt.form_id, rt.field, \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE rt.run_id = ?1 AND (?2 IS NULL OR rt.form_id = ?2) ORDER BY rt.form_id, rt.field
            """)
        try statement.bind([.integer(runID), .integer(formID)])
        return try statement.map { row in
            RunFieldType(formID: row.int64(0), field: row.string(1),
                         version: Self.version(.type, from: row, at: 2))
        }
    }

    /// Every distinct (field, type version) that judged a field of form `name` in any run,
    /// by field then version id: what decides, with the registries, which stored values
    /// of the form are secret (a type version that was `secure` when it judged a field
    /// keeps that field masked whatever the registry says later).
    public func fieldTypes(ofForm name: String) throws -> [RunFieldType] {
        let statement = try database.cachedStatement("""
            SELECT DISTINCT rt.form_id, rt.field, \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN forms AS f ON f.id = rt.form_id
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE f.name = ?1 ORDER BY rt.field, v.id
            """)
        try statement.bind([.text(name)])
        return try statement.map { row in
            RunFieldType(formID: row.int64(0), field: row.string(1),
                         version: Self.version(.type, from: row, at: 2))
        }
    }

    // MARK: Entry verdicts

    /// Every run that judged the entry, oldest first, with its verdict, failed rules, the
    /// entry version judged and the type versions used (`history ENTRY`). Throws
    /// ``StoreError/noSuchEntry(_:)`` for an unknown id.
    public func runHistory(entryID: Int64) throws -> [EntryRunVerdict] {
        try verdicts(entryID: entryID, latestOnly: false)
    }

    /// The newest run's verdict on the entry, or nil when no run judged it (`entries show`).
    public func latestVerdict(entryID: Int64) throws -> EntryRunVerdict? {
        try verdicts(entryID: entryID, latestOnly: true).last
    }

    /// Ids of the entries that the newest run of each form (or of `form`) found invalid (or,
    /// with `includeWarningsOnly`, with any failed rule), ascending: `entries list --failing`.
    public func failingEntryIDs(form: String? = nil, includeWarningsOnly: Bool = false) throws -> [Int64] {
        let forms = try form.map { [$0] } ?? formNamesWithEntries()
        var ids: [Int64] = []
        for name in forms {
            guard let run = try latestRun(form: name) else { continue }
            ids += try failingEntries(ofRun: run.id, form: name, includeWarningsOnly: includeWarningsOnly)
                .map(\.entryID)
        }
        return ids.sorted()
    }

    private func verdicts(entryID: Int64, latestOnly: Bool) throws -> [EntryRunVerdict] {
        guard let entry = try database.cachedStatement(
            "SELECT form_id, version, coalesce(updated_in, created_in) FROM entries WHERE id = ?")
            .bindingFirst([.integer(entryID)], { ($0.int64(0), $0.int(1), $0.int64(2)) }) else {
            throw StoreError.noSuchEntry(entryID)
        }
        let (formID, currentVersion, currentWrittenIn) = entry
        let runIDs = try database.cachedStatement("""
            SELECT run_id FROM run_forms WHERE form_id = ?1 AND judged_through >= ?2 ORDER BY run_id
            """).bindingMap([.integer(formID), .integer(entryID)]) { $0.int64(0) }
        // Earlier versions: (version, written_in, replaced_in).
        let earlier = try database.cachedStatement(
            "SELECT version, written_in, replaced_in FROM entry_versions WHERE entry_id = ? ORDER BY version")
            .bindingMap([.integer(entryID)]) { ($0.int(0), $0.int64(1), $0.int64(2)) }
        var out: [EntryRunVerdict] = []
        for runID in latestOnly ? Array(runIDs.suffix(1)) : runIDs {
            guard let run = try run(id: runID) else { continue }
            let results = try database.cachedStatement("""
                SELECT r.entry_version, \(Self.ruleColumns) FROM run_results AS r
                JOIN run_rules AS rr ON rr.id = r.rule_id JOIN forms AS f ON f.id = rr.form_id
                WHERE r.run_id = ? AND r.entry_id = ? ORDER BY r.rule_id
                """)
                .bindingMap([.integer(runID), .integer(entryID)]) { row in
                    RunResult(runID: runID, entryID: entryID, entryVersion: row.int(0),
                              rule: Self.rule(from: row, at: 1))
                }
            let version: Int
            if let first = results.first {
                version = first.entryVersion
            } else if currentWrittenIn <= run.lastImport {
                version = currentVersion
            } else {
                version = earlier.first { $0.1 <= run.lastImport && run.lastImport < $0.2 }?.0 ?? currentVersion
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

    static let runColumns = """
        r.id, r.started_at, r.ended_at, r.actor, r.today, r.last_import, r.status, r.error,
        r.host, r.pid, r.process_start,
        r.entries_checked, r.entries_invalid, r.entries_warned, r.errors, r.warnings
        """

    static let ruleColumns = "rr.id, rr.form_id, f.name, rr.field, rr.type, rr.rule, rr.severity, rr.message"

    static func runHeader(from row: Row) -> RunRecord {
        let recorded = RunStatus(rawValue: row.string(6)) ?? .incomplete
        let process = RunProcess(host: row.string(8), pid: row.int64(9), start: row.string(10))
        var status = recorded
        var error = row.optionalString(7)
        if recorded == .running && !process.isAlive {
            status = .incomplete
            error = error ?? "its process (pid \(process.pid) on \(process.host)) ended before the run did"
        }
        return RunRecord(id: row.int64(0), startedAt: row.string(1), endedAt: row.optionalString(2),
                         actor: row.string(3), today: row.string(4), lastImport: row.int64(5),
                         status: status, recordedStatus: recorded, error: error, process: process,
                         counts: counts(from: row, at: 11), forms: [])
    }

    static func counts(from row: Row, at column: Int) -> RunCounts {
        RunCounts(entriesChecked: row.int(column), entriesInvalid: row.int(column + 1),
                  entriesWarned: row.int(column + 2), errors: row.int(column + 3),
                  warnings: row.int(column + 4))
    }

    static func rule(from row: Row, at c: Int) -> RunRule {
        RunRule(id: row.int64(c), formID: row.int64(c + 1), form: row.string(c + 2),
                field: row.optionalString(c + 3), type: row.optionalString(c + 4), rule: row.string(c + 5),
                severity: Severity(rawValue: row.string(c + 6)) ?? .error, message: row.string(c + 7))
    }

    private func withForms(_ run: RunRecord) throws -> RunRecord {
        var run = run
        let statement = try database.cachedStatement("""
            SELECT rf.form_id, f.name, rf.form_version_id, fv.hash, rf.last_id, rf.judged_through,
                   rf.entries_checked, rf.entries_invalid, rf.entries_warned, rf.errors, rf.warnings
            FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            JOIN form_versions AS fv ON fv.id = rf.form_version_id
            WHERE rf.run_id = ? ORDER BY f.name
            """)
        try statement.bind([.integer(run.id)])
        run.forms = try statement.map { row in
            RunFormRecord(formID: row.int64(0), form: row.string(1), formVersionID: row.int64(2),
                          formVersionHash: row.string(3), lastID: row.int64(4),
                          judgedThrough: row.int64(5), counts: Self.counts(from: row, at: 6))
        }
        return run
    }
}

extension Statement {
    fileprivate func bindingFirst<T>(_ values: StatementArguments, _ transform: (Row) throws -> T) throws -> T? {
        try bind(values)
        return try first(transform)
    }

    fileprivate func bindingMap<T>(_ values: StatementArguments, _ transform: (Row) throws -> T) throws -> [T] {
        try bind(values)
        return try map(transform)
    }
}
