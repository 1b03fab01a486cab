import FormularyRules

/// Validation runs (tables `runs`, `run_forms`, `run_type_versions`, `run_rules`,
/// `run_results`).
extension SQLiteBackend {
    package func insertRun(_ run: RunRecord) throws -> Int64 {
        try database.execute("""
            INSERT INTO runs (started_at, actor, today, last_import, status, host, pid, process_start, locale, messages)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(run.startedAt), .text(run.actor), .text(run.today), .integer(run.lastImport),
                  .text(run.recordedStatus.rawValue), .text(run.process.host), .integer(run.process.pid),
                  .text(run.process.start), .text(run.locale), .text(run.messages)])
        return database.lastInsertRowID
    }

    package func insertRunForm(runID: Int64, formID: Int64, formVersionID: Int64, lastID: Int64) throws {
        try database.execute("""
            INSERT INTO run_forms (run_id, form_id, form_version_id, last_id) VALUES (?, ?, ?, ?)
            """, [.integer(runID), .integer(formID), .integer(formVersionID), .integer(lastID)])
    }

    package func insertRunFieldType(runID: Int64, formID: Int64, field: String, typeVersionID: Int64) throws {
        try database.execute("""
            INSERT INTO run_type_versions (run_id, form_id, field, type_version_id) VALUES (?, ?, ?, ?)
            """, [.integer(runID), .integer(formID), .text(field), .integer(typeVersionID)])
    }

    @discardableResult
    package func endRun(id: Int64, status: RunStatus, endedAt: String?, error: String?) throws -> Bool {
        try database.execute("UPDATE runs SET status = ?, ended_at = ?, error = ? WHERE id = ? AND status = 'running'",
                             [.text(status.rawValue), .text(endedAt), .text(error), .integer(id)])
        return database.changes == 1
    }

    package func runningRuns() throws -> [(id: Int64, process: RunProcess)] {
        try database.cachedStatement(
            "SELECT id, host, pid, process_start FROM runs WHERE status = 'running' ORDER BY id")
            .map { ($0.int64(0), RunProcess(host: $0.string(1), pid: $0.int64(2), start: $0.string(3))) }
    }

    package func runHeaders(form: String?, limit: Int?) throws -> [RunRecord] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.runColumns) FROM runs AS r
            WHERE ?1 IS NULL OR EXISTS (SELECT 1 FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
                                        WHERE rf.run_id = r.id AND f.name = ?1)
            ORDER BY r.id DESC LIMIT ?2
            """)
        try statement.bind([.text(form), .integer(Int64(limit ?? -1))])
        return try statement.map { Self.runHeader(from: $0) }
    }

    package func runHeader(id: Int64) throws -> RunRecord? {
        let statement = try database.cachedStatement("SELECT \(Self.runColumns) FROM runs AS r WHERE r.id = ?")
        try statement.bind([.integer(id)])
        return try statement.first { Self.runHeader(from: $0) }
    }

    package func runForms(runID: Int64) throws -> [RunFormRecord] {
        let statement = try database.cachedStatement("""
            SELECT rf.form_id, f.name, rf.form_version_id, fv.hash, rf.last_id, rf.judged_through,
                   rf.entries_checked, rf.entries_invalid, rf.entries_warned, rf.errors, rf.warnings,
                   rf.entries_carried, rf.carried_from, rf.shares_from
            FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            JOIN form_versions AS fv ON fv.id = rf.form_version_id
            WHERE rf.run_id = ? ORDER BY f.name
            """)
        try statement.bind([.integer(runID)])
        return try statement.map { row in
            RunFormRecord(formID: row.int64(0), form: row.string(1), formVersionID: row.int64(2),
                          formVersionHash: row.string(3), lastID: row.int64(4),
                          judgedThrough: row.int64(5), counts: Self.counts(from: row, at: 6),
                          entriesCarried: row.int(11), carriedFrom: row.optionalInt64(12),
                          sharesFrom: row.optionalInt64(13))
        }
    }

    package func runIDs() throws -> [Int64] {
        try database.cachedStatement("SELECT id FROM runs ORDER BY id").map { $0.int64(0) }
    }

    package func previousRunID(before runID: Int64, form: String) throws -> Int64? {
        try database.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            WHERE f.name = ? AND rf.run_id < ?
            """, [.text(form), .integer(runID)])
    }

    package func runIDs(judging entryID: Int64, formID: Int64) throws -> [Int64] {
        let statement = try database.cachedStatement(
            "SELECT run_id FROM run_forms WHERE form_id = ?1 AND judged_through >= ?2 ORDER BY run_id")
        try statement.bind([.integer(formID), .integer(entryID)])
        return try statement.map { $0.int64(0) }
    }

    package func rules(ofRun runID: Int64, form: String?) throws -> [RunRule] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = ?1 AND (?2 IS NULL OR f.name = ?2)
            UNION ALL
            SELECT \(Self.ruleColumns) FROM run_forms AS s
            JOIN run_rules AS rr ON rr.run_id = s.shares_from AND rr.form_id = s.form_id
            LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE s.run_id = ?1 AND s.shares_from IS NOT NULL AND (?2 IS NULL OR f.name = ?2)
            ORDER BY 1
            """)
        try statement.bind([.integer(runID), .text(form)])
        return try statement.map { Self.rule(from: $0, at: 0) }
    }

    package func ownRules(ofRun runID: Int64) throws -> [RunRule] {
        let statement = try database.cachedStatement("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = ?1 ORDER BY rr.id
            """)
        try statement.bind([.integer(runID)])
        return try statement.map { Self.rule(from: $0, at: 0) }
    }

    package func forEachResultRow(ofRun runID: Int64,
                                 _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws {
        let statement = try database.cachedStatement(
            "SELECT entry_id, entry_version, rule_id FROM run_results_all WHERE run_id = ? ORDER BY entry_id, rule_id")
        try statement.bind([.integer(runID)])
        try statement.forEachRow { try body($0.int64(0), $0.int(1), $0.int64(2)) }
    }

    package func forEachOwnResultRow(ofRun runID: Int64,
                                    _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws {
        let statement = try database.cachedStatement(
            "SELECT entry_id, entry_version, rule_id FROM run_results WHERE run_id = ? ORDER BY entry_id, rule_id")
        try statement.bind([.integer(runID)])
        try statement.forEachRow { try body($0.int64(0), $0.int(1), $0.int64(2)) }
    }

    package func rejudgedEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        let statement = try database.cachedStatement(
            "SELECT entry_id FROM run_rejudged WHERE run_id = ? AND form_id = ? ORDER BY entry_id")
        try statement.bind([.integer(runID), .integer(formID)])
        return try statement.map { $0.int64(0) }
    }

    package func results(ofRun runID: Int64, entryID: Int64) throws -> [RunResult] {
        let statement = try database.cachedStatement("""
            SELECT r.entry_version, \(Self.ruleColumns) FROM run_results_all AS r
            JOIN run_rules AS rr ON rr.id = r.rule_id JOIN forms AS f ON f.id = rr.form_id
            WHERE r.run_id = ? AND r.entry_id = ? ORDER BY r.rule_id
            """)
        try statement.bind([.integer(runID), .integer(entryID)])
        return try statement.map { row in
            RunResult(runID: runID, entryID: entryID, entryVersion: row.int(0), rule: Self.rule(from: row, at: 1))
        }
    }

    package func invalidEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        let statement = try database.cachedStatement("""
            SELECT DISTINCT r.entry_id FROM run_results_all AS r JOIN run_rules AS rr ON rr.id = r.rule_id
            WHERE r.run_id = ? AND rr.form_id = ? AND rr.severity = 'error' ORDER BY r.entry_id
            """)
        try statement.bind([.integer(runID), .integer(formID)])
        return try statement.map { $0.int64(0) }
    }

    package func fieldTypes(ofRun runID: Int64, formID: Int64?) throws -> [RunFieldType] {
        let statement = try database.cachedStatement("""
            SELECT rt.form_id, rt.field, \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE rt.run_id = ?1 AND (?2 IS NULL OR rt.form_id = ?2) ORDER BY rt.form_id, rt.field
            """)
        try statement.bind([.integer(runID), .integer(formID)])
        return try statement.map { row in
            RunFieldType(formID: row.int64(0), field: row.string(1), version: Self.version(.type, from: row, at: 2))
        }
    }

    package func fieldTypes(ofForm name: String) throws -> [RunFieldType] {
        let statement = try database.cachedStatement("""
            SELECT DISTINCT rt.form_id, rt.field, \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN forms AS f ON f.id = rt.form_id
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE f.name = ?1 ORDER BY rt.field, v.id
            """)
        try statement.bind([.text(name)])
        return try statement.map { row in
            RunFieldType(formID: row.int64(0), field: row.string(1), version: Self.version(.type, from: row, at: 2))
        }
    }

    package func makeRunResultRowWriter(runID: Int64) throws -> any RunResultRowWriting {
        try SQLiteRunResultRowWriter(database: database, runID: runID)
    }

    // MARK: Rows

    static let runColumns = """
        r.id, r.started_at, r.ended_at, r.actor, r.today, r.last_import, r.status, r.error,
        r.host, r.pid, r.process_start,
        r.entries_checked, r.entries_invalid, r.entries_warned, r.errors, r.warnings, r.entries_carried, r.locale,
        r.messages
        """

    static let ruleColumns = "rr.id, rr.form_id, coalesce(f.name, ''), rr.field, rr.type, rr.rule, rr.severity, rr.message"

    static func runHeader(from row: Row) -> RunRecord {
        let recorded = RunStatus(rawValue: row.string(6)) ?? .incomplete
        let process = RunProcess(host: row.string(8), pid: row.int64(9), start: row.string(10))
        return RunRecord(id: row.int64(0), startedAt: row.string(1), endedAt: row.optionalString(2),
                         actor: row.string(3), today: row.string(4), lastImport: row.int64(5),
                         status: recorded, recordedStatus: recorded, error: row.optionalString(7), process: process,
                         counts: counts(from: row, at: 11), forms: [], entriesCarried: row.int(16),
                         locale: row.optionalString(17), messages: row.optionalString(18))
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
}

/// The prepared statements of one run's writer. Result rows go in ``rowsPerInsert`` at a time
/// (one statement step per group instead of per row, which halved the writer's time);
/// ``progress(formID:judgedThrough:counts:)`` writes the rest.
final class SQLiteRunResultRowWriter: RunResultRowWriting {
    let database: Database
    let runID: Int64
    private let insertRule: Statement
    private let insertResult: Statement
    private let insertResults: Statement
    private let updateForm: Statement
    private let updateRun: Statement
    /// Result rows not yet inserted: (entry id, rule id, entry version) triples. (Unchecked:
    /// see ``RunResultWriter``, whose one thread is this writer's.)
    @exclusivity(unchecked) private var pending: [Int64] = []
    static let rowsPerInsert = 64

    init(database: Database, runID: Int64) throws {
        self.database = database
        self.runID = runID
        insertRule = try database.makeStatement("""
            INSERT INTO run_rules (run_id, form_id, field, type, rule, severity, message) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        insertResult = try database.makeStatement(
            "INSERT OR IGNORE INTO run_results (run_id, entry_id, rule_id, entry_version) VALUES (?, ?, ?, ?)")
        insertResults = try database.makeStatement(
            "INSERT OR IGNORE INTO run_results (run_id, entry_id, rule_id, entry_version) VALUES "
                + Array(repeating: "(?1, ?, ?, ?)", count: Self.rowsPerInsert).joined(separator: ", "))
        pending.reserveCapacity(3 * Self.rowsPerInsert)
        updateForm = try database.makeStatement("""
            UPDATE run_forms SET judged_through = max(judged_through, ?), entries_checked = entries_checked + ?,
                entries_invalid = entries_invalid + ?, entries_warned = entries_warned + ?,
                errors = errors + ?, warnings = warnings + ?
            WHERE run_id = ? AND form_id = ?
            """)
        updateRun = try database.makeStatement("""
            UPDATE runs SET entries_checked = entries_checked + ?, entries_invalid = entries_invalid + ?,
                entries_warned = entries_warned + ?, errors = errors + ?, warnings = warnings + ?
            WHERE id = ?
            """)
    }

    func insertRule(_ rule: RunRule) throws -> Int64 {
        insertRule.bind(runID, at: 1)
        insertRule.bind(rule.formID, at: 2)
        insertRule.bind(rule.field, at: 3)
        insertRule.bind(rule.type, at: 4)
        insertRule.bind(rule.rule, at: 5)
        insertRule.bind(rule.severity.rawValue, at: 6)
        insertRule.bind(rule.message, at: 7)
        try insertRule.execute()
        return database.lastInsertRowID
    }

    func addResult(entryID: Int64, ruleID: Int64, entryVersion: Int64) throws {
        pending.append(entryID)
        pending.append(ruleID)
        pending.append(entryVersion)
        if pending.count == 3 * Self.rowsPerInsert { try flush() }
    }

    /// Inserts the pending rows: a full group with one statement, a partial one row by row.
    private func flush() throws {
        defer { pending.removeAll(keepingCapacity: true) }
        if pending.count == 3 * Self.rowsPerInsert {
            insertResults.bind(runID, at: 1)
            for (k, value) in pending.enumerated() { insertResults.bind(value, at: k + 2) }
            try insertResults.execute()
            return
        }
        for row in stride(from: 0, to: pending.count, by: 3) {
            insertResult.bind(runID, at: 1)
            insertResult.bind(pending[row], at: 2)
            insertResult.bind(pending[row + 1], at: 3)
            insertResult.bind(pending[row + 2], at: 4)
            try insertResult.execute()
        }
    }

    func progress(formID: Int64, judgedThrough: Int64, counts: RunCounts) throws {
        try flush()
        updateForm.bind(judgedThrough, at: 1)
        updateForm.bind(counts.entriesChecked, at: 2)
        updateForm.bind(counts.entriesInvalid, at: 3)
        updateForm.bind(counts.entriesWarned, at: 4)
        updateForm.bind(counts.errors, at: 5)
        updateForm.bind(counts.warnings, at: 6)
        updateForm.bind(runID, at: 7)
        updateForm.bind(formID, at: 8)
        try updateForm.execute()
        updateRun.bind(counts.entriesChecked, at: 1)
        updateRun.bind(counts.entriesInvalid, at: 2)
        updateRun.bind(counts.entriesWarned, at: 3)
        updateRun.bind(counts.errors, at: 4)
        updateRun.bind(counts.warnings, at: 5)
        updateRun.bind(runID, at: 6)
        try updateRun.execute()
    }
}
