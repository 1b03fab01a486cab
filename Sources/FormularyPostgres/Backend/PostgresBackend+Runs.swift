import FormularyStore
import FormularyRules

/// Validation runs (tables `runs`, `run_forms`, `run_type_versions`, `run_rules`,
/// `run_results`): the statements of ``SQLiteBackend``'s in PostgreSQL's dialect.
package extension PostgresBackend {
    func insertRun(_ run: RunRecord) throws -> Int64 {
        try Self.returnedID(connection.execute("""
            INSERT INTO runs (id, started_at, actor, today, last_import, status, host, pid, process_start, locale, messages)
            VALUES (\(Self.nextID("runs")), $1, $2, $3, $4, $5, $6, $7, $8, $9::text, $10::text) RETURNING id
            """, [.text(run.startedAt), .text(run.actor), .text(run.today), .integer(run.lastImport),
                  .text(run.recordedStatus.rawValue), .text(run.process.host), .integer(run.process.pid),
                  .text(run.process.start), .text(run.locale), .text(run.messages)]))
    }

    func insertRunForm(runID: Int64, formID: Int64, formVersionID: Int64, lastID: Int64) throws {
        try connection.execute("INSERT INTO run_forms (run_id, form_id, form_version_id, last_id) VALUES ($1, $2, $3, $4)",
                               [.integer(runID), .integer(formID), .integer(formVersionID), .integer(lastID)])
    }

    func insertRunFieldType(runID: Int64, formID: Int64, field: String, typeVersionID: Int64) throws {
        try connection.execute("""
            INSERT INTO run_type_versions (run_id, form_id, field, type_version_id) VALUES ($1, $2, $3, $4)
            """, [.integer(runID), .integer(formID), .text(field), .integer(typeVersionID)])
    }

    @discardableResult
    func endRun(id: Int64, status: RunStatus, endedAt: String?, error: String?) throws -> Bool {
        try connection.execute(
            "UPDATE runs SET status = $1, ended_at = $2::text, error = $3::text WHERE id = $4 AND status = 'running'",
            [.text(status.rawValue), .text(endedAt), .text(error), .integer(id)]).affectedRows == 1
    }

    func runningRuns() throws -> [(id: Int64, process: RunProcess)] {
        try connection.execute("SELECT id, host, pid, process_start FROM runs WHERE status = 'running' ORDER BY id").map { row in
            (try row.int64(0), RunProcess(host: try row.string(1), pid: try row.int64(2), start: try row.string(3)))
        }
    }

    func runHeaders(form: String?, limit: Int?) throws -> [RunRecord] {
        try connection.execute("""
            SELECT \(Self.runColumns) FROM runs AS r
            WHERE $1::text IS NULL OR EXISTS (SELECT 1 FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
                                              WHERE rf.run_id = r.id AND f.name = $1)
            ORDER BY r.id DESC LIMIT $2::bigint
            """, [.text(form), .integer(limit.map(Int64.init))]).map(Self.runHeader(from:))
    }

    func runHeader(id: Int64) throws -> RunRecord? {
        try connection.execute("SELECT \(Self.runColumns) FROM runs AS r WHERE r.id = $1", [.integer(id)])
            .first.map(Self.runHeader(from:))
    }

    /// Sorted by form name as bytes, as SQLite sorts them.
    func runForms(runID: Int64) throws -> [RunFormRecord] {
        try connection.execute("""
            SELECT rf.form_id, f.name, rf.form_version_id, fv.hash, rf.last_id, rf.judged_through,
                   rf.entries_checked, rf.entries_invalid, rf.entries_warned, rf.errors, rf.warnings,
                   rf.entries_carried, rf.carried_from, rf.shares_from
            FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            JOIN form_versions AS fv ON fv.id = rf.form_version_id
            WHERE rf.run_id = $1 ORDER BY f.name COLLATE "C"
            """, [.integer(runID)]).map { row in
            RunFormRecord(formID: try row.int64(0), form: try row.string(1), formVersionID: try row.int64(2),
                          formVersionHash: try row.string(3), lastID: try row.int64(4),
                          judgedThrough: try row.int64(5), counts: try Self.counts(from: row, at: 6),
                          entriesCarried: try row.int(11), carriedFrom: try row.optionalInt64(12),
                          sharesFrom: try row.optionalInt64(13))
        }
    }

    func runIDs() throws -> [Int64] {
        try connection.execute("SELECT id FROM runs ORDER BY id").map { row in try row.int64(0) }
    }

    func previousRunID(before runID: Int64, form: String) throws -> Int64? {
        try connection.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN forms AS f ON f.id = rf.form_id
            WHERE f.name = $1 AND rf.run_id < $2
            """, [.text(form), .integer(runID)])
    }

    func runIDs(judging entryID: Int64, formID: Int64) throws -> [Int64] {
        try connection.execute("SELECT run_id FROM run_forms WHERE form_id = $1 AND judged_through >= $2 ORDER BY run_id",
                               [.integer(formID), .integer(entryID)]).map { row in try row.int64(0) }
    }

    func rules(ofRun runID: Int64, form: String?) throws -> [RunRule] {
        try connection.execute("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = $1 AND ($2::text IS NULL OR f.name = $2)
            UNION ALL
            SELECT \(Self.ruleColumns) FROM run_forms AS s
            JOIN run_rules AS rr ON rr.run_id = s.shares_from AND rr.form_id = s.form_id
            LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE s.run_id = $1 AND s.shares_from IS NOT NULL AND ($2::text IS NULL OR f.name = $2)
            ORDER BY 1
            """, [.integer(runID), .text(form)]).map { row in try Self.rule(from: row, at: 0) }
    }

    func ownRules(ofRun runID: Int64) throws -> [RunRule] {
        try connection.execute("""
            SELECT \(Self.ruleColumns) FROM run_rules AS rr LEFT JOIN forms AS f ON f.id = rr.form_id
            WHERE rr.run_id = $1 ORDER BY rr.id
            """, [.integer(runID)]).map { row in try Self.rule(from: row, at: 0) }
    }

    /// In pages by (entry, rule), so that neither side holds a large run's results. The rows a
    /// run shares come as one stream per shared form, each in the order of the shared run's
    /// primary key, merged here: through the view, every page would sort all of them again.
    func forEachResultRow(ofRun runID: Int64,
                          _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws {
        var streams = [resultPages(ofRun: runID)]
        for form in try runForms(runID: runID) {
            guard let shared = form.sharesFrom else { continue }
            streams.append(sharedResultPages(ofRun: runID, formID: form.formID, sharedFrom: shared))
        }
        guard streams.count > 1 else {
            while let row = try streams[0].next() { try body(try row.int64(0), try row.int(1), try row.int64(2)) }
            return
        }
        var heads: [(entry: Int64, version: Int, rule: Int64)?] = try streams.map { stream in
            try stream.next().map { (try $0.int64(0), try $0.int(1), try $0.int64(2)) }
        }
        while true {
            // The stream whose next row comes first (a few streams: one pass, no allocation).
            var first: Int?
            for k in heads.indices {
                guard let head = heads[k] else { continue }
                if let f = first, let best = heads[f], (best.entry, best.rule) <= (head.entry, head.rule) { continue }
                first = k
            }
            guard let k = first, let row = heads[k] else { return }
            try body(row.entry, row.version, row.rule)
            heads[k] = try streams[k].next().map { (try $0.int64(0), try $0.int(1), try $0.int64(2)) }
        }
    }

    func forEachOwnResultRow(ofRun runID: Int64,
                             _ body: (_ entryID: Int64, _ entryVersion: Int, _ ruleID: Int64) throws -> Void) throws {
        let pages = resultPages(ofRun: runID)
        while let row = try pages.next() {
            try body(try row.int64(0), try row.int(1), try row.int64(2))
        }
    }

    /// The run's own rows (`run_results`), by entry then rule.
    private func resultPages(ofRun runID: Int64) -> KeysetPages {
        KeysetPages(connection: connection, sql: """
            SELECT entry_id, entry_version, rule_id, run_id FROM run_results
            WHERE run_id = $1 AND (entry_id, rule_id) > ($2, $3) ORDER BY entry_id, rule_id LIMIT 5000
            """, keys: { row in [.integer(try row.int64(3)), .integer(try row.int64(0)), .integer(try row.int64(2))] },
            start: [.integer(runID), .integer(0), .integer(0)])
    }

    /// The rows of form `formID` that run `runID` shares from run `sharedFrom` (those of
    /// entries it did not judge again), by entry then rule: the second part of the view
    /// `run_results_all`, for one form.
    private func sharedResultPages(ofRun runID: Int64, formID: Int64, sharedFrom: Int64) -> KeysetPages {
        KeysetPages(connection: connection, sql: """
            SELECT b.entry_id, b.entry_version, b.rule_id FROM run_results AS b
            JOIN run_rules AS br ON br.id = b.rule_id AND br.form_id = $4
            WHERE b.run_id = $1 AND (b.entry_id, b.rule_id) > ($2, $3)
              AND NOT EXISTS (SELECT 1 FROM run_rejudged AS j
                              WHERE j.run_id = $5 AND j.form_id = $4 AND j.entry_id = b.entry_id)
            ORDER BY b.entry_id, b.rule_id LIMIT 5000
            """, keys: { row in [.integer(sharedFrom), .integer(try row.int64(0)), .integer(try row.int64(2)),
                                .integer(formID), .integer(runID)] },
            start: [.integer(sharedFrom), .integer(0), .integer(0), .integer(formID), .integer(runID)])
    }

    func rejudgedEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        try connection.execute("SELECT entry_id FROM run_rejudged WHERE run_id = $1 AND form_id = $2 ORDER BY entry_id",
                               [.integer(runID), .integer(formID)]).map { row in try row.int64(0) }
    }

    func results(ofRun runID: Int64, entryID: Int64) throws -> [RunResult] {
        try connection.execute("""
            SELECT r.entry_version, \(Self.ruleColumns) FROM run_results_all AS r
            JOIN run_rules AS rr ON rr.id = r.rule_id JOIN forms AS f ON f.id = rr.form_id
            WHERE r.run_id = $1 AND r.entry_id = $2 ORDER BY r.rule_id
            """, [.integer(runID), .integer(entryID)]).map { row in
            RunResult(runID: runID, entryID: entryID, entryVersion: try row.int(0), rule: try Self.rule(from: row, at: 1))
        }
    }

    func invalidEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        try connection.execute("""
            SELECT DISTINCT r.entry_id FROM run_results_all AS r JOIN run_rules AS rr ON rr.id = r.rule_id
            WHERE r.run_id = $1 AND rr.form_id = $2 AND rr.severity = 'error' ORDER BY r.entry_id
            """, [.integer(runID), .integer(formID)]).map { row in try row.int64(0) }
    }

    /// Fields sort as bytes, as SQLite sorts them.
    func fieldTypes(ofRun runID: Int64, formID: Int64?) throws -> [RunFieldType] {
        try connection.execute("""
            SELECT rt.form_id, rt.field, \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE rt.run_id = $1 AND ($2::bigint IS NULL OR rt.form_id = $2) ORDER BY rt.form_id, rt.field COLLATE "C"
            """, [.integer(runID), .integer(formID)]).map { row in
            RunFieldType(formID: try row.int64(0), field: try row.string(1), version: try Self.version(.type, from: row, at: 2))
        }
    }

    func fieldTypes(ofForm name: String) throws -> [RunFieldType] {
        try connection.execute("""
            SELECT DISTINCT rt.form_id, rt.field COLLATE "C", \(Self.versionColumns(.type)) FROM run_type_versions AS rt
            JOIN forms AS f ON f.id = rt.form_id
            JOIN type_versions AS v ON v.id = rt.type_version_id
            WHERE f.name = $1 ORDER BY 2, v.id
            """, [.text(name)]).map { row in
            RunFieldType(formID: try row.int64(0), field: try row.string(1), version: try Self.version(.type, from: row, at: 2))
        }
    }

    func makeRunResultRowWriter(runID: Int64) throws -> any RunResultRowWriting {
        PostgresRunResultRowWriter(connection: connection, runID: runID)
    }

    // MARK: Rows

    static let runColumns = """
        r.id, r.started_at, r.ended_at, r.actor, r.today, r.last_import, r.status, r.error,
        r.host, r.pid, r.process_start,
        r.entries_checked, r.entries_invalid, r.entries_warned, r.errors, r.warnings, r.entries_carried, r.locale,
        r.messages
        """

    static let ruleColumns = "rr.id, rr.form_id, coalesce(f.name, ''), rr.field, rr.type, rr.rule, rr.severity, rr.message"

    static func runHeader(from row: PostgresRow) throws -> RunRecord {
        let recorded = RunStatus(rawValue: try row.string(6)) ?? .incomplete
        let process = RunProcess(host: try row.string(8), pid: try row.int64(9), start: try row.string(10))
        return RunRecord(id: try row.int64(0), startedAt: try row.string(1), endedAt: try row.optionalString(2),
                         actor: try row.string(3), today: try row.string(4), lastImport: try row.int64(5),
                         status: recorded, recordedStatus: recorded, error: try row.optionalString(7), process: process,
                         counts: try counts(from: row, at: 11), forms: [], entriesCarried: try row.int(16),
                         locale: try row.optionalString(17), messages: try row.optionalString(18))
    }

    static func counts(from row: PostgresRow, at column: Int) throws -> RunCounts {
        RunCounts(entriesChecked: try row.int(column), entriesInvalid: try row.int(column + 1),
                  entriesWarned: try row.int(column + 2), errors: try row.int(column + 3),
                  warnings: try row.int(column + 4))
    }

    static func rule(from row: PostgresRow, at c: Int) throws -> RunRule {
        RunRule(id: try row.int64(c), formID: try row.int64(c + 1), form: try row.string(c + 2),
                field: try row.optionalString(c + 3), type: try row.optionalString(c + 4), rule: try row.string(c + 5),
                severity: Severity(rawValue: try row.string(c + 6)) ?? .error, message: try row.string(c + 7))
    }
}

/// One run's writer. Result rows go in groups of ``rowsPerInsert`` through one statement that
/// unnests three arrays (one round trip per group, not per row); ``progress(formID:judgedThrough:counts:)``
/// writes the rest. A repeated (entry, rule) keeps the first (`ON CONFLICT DO NOTHING`).
///
/// After ``promiseNewRows()`` (a shared run's chunks) rows go as one binary `COPY` per batch
/// instead, without `ON CONFLICT`: its speculative insertion was two thirds of the server's
/// time for these rows (measured with 160,000 rows: 0.72–0.89 s with it, 0.23–0.30 s as a
/// plain insert or `COPY`). Repeats within an entry are dropped here.
final class PostgresRunResultRowWriter: RunResultRowWriting {
    let connection: PostgresConnection
    let runID: Int64
    private var entries: [Int64] = []
    private var rules: [Int64] = []
    private var versions: [Int64] = []
    static let rowsPerInsert = 1000
    /// With ``promiseNewRows()``: the batch's rows as binary COPY data, and the rules of the
    /// entry last added (to drop its repeats).
    private var copy: PostgresBinaryCopy?
    private var copyEntry: Int64 = -1
    private var copyEntryRules: [Int64] = []
    static let copyStatement = "COPY run_results (run_id, entry_id, rule_id, entry_version) FROM STDIN (FORMAT binary)"
    static let bytesPerCopy = 4 << 20

    init(connection: PostgresConnection, runID: Int64) {
        self.connection = connection
        self.runID = runID
    }

    /// The run's row for this rule: the one stored already (by another process writing the
    /// same run, `validate --join`) or a new one, in one statement (index
    /// `run_rules_by_content`). Under the writers' lock, so no two processes add the same rule.
    func insertRule(_ rule: RunRule) throws -> Int64 {
        try PostgresBackend.returnedID(connection.execute("""
            WITH found AS (
                SELECT id FROM run_rules
                WHERE run_id = $1 AND form_id = $2 AND rule = $5 AND md5(message) = md5($7) AND message = $7
                  AND field IS NOT DISTINCT FROM $3::text AND type IS NOT DISTINCT FROM $4::text AND severity = $6
                ORDER BY id LIMIT 1),
            added AS (
                INSERT INTO run_rules (id, run_id, form_id, field, type, rule, severity, message)
                SELECT \(PostgresBackend.nextID("run_rules")), $1, $2, $3::text, $4::text, $5, $6, $7
                WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id)
            SELECT id FROM found UNION ALL SELECT id FROM added
            """, [.integer(runID), .integer(rule.formID), .text(rule.field), .text(rule.type), .text(rule.rule),
                  .text(rule.severity.rawValue), .text(rule.message)]))
    }

    func promiseNewRows() {
        guard copy == nil else { return }
        // Rows added before the promise keep their ON CONFLICT insert.
        if !entries.isEmpty { pendingInserts = true }
        copy = PostgresBinaryCopy()
    }

    /// Rows added before ``promiseNewRows()`` and not yet inserted.
    private var pendingInserts = false

    func addResult(entryID: Int64, ruleID: Int64, entryVersion: Int64) throws {
        if copy != nil {
            if entryID != copyEntry {
                copyEntry = entryID
                copyEntryRules.removeAll(keepingCapacity: true)
            } else if copyEntryRules.contains(ruleID) {
                return
            }
            copyEntryRules.append(ruleID)
            copy!.beginRow(fields: 4)
            copy!.int8(runID)
            copy!.int8(entryID)
            copy!.int8(ruleID)
            copy!.int8(entryVersion)
            if copy!.bytes.count >= Self.bytesPerCopy { try flush() }
            return
        }
        entries.append(entryID)
        rules.append(ruleID)
        versions.append(entryVersion)
        if entries.count == Self.rowsPerInsert { try flush() }
    }

    private func flush() throws {
        if copy == nil || pendingInserts { try flushInserts() }
        pendingInserts = false
        guard let rows = copy, !rows.isEmpty else { return }
        let data = rows.finished()
        copy!.reset()
        try connection.copyIn(Self.copyStatement, data: data)
    }

    private func flushInserts() throws {
        guard !entries.isEmpty else { return }
        defer {
            entries.removeAll(keepingCapacity: true)
            rules.removeAll(keepingCapacity: true)
            versions.removeAll(keepingCapacity: true)
        }
        // Integers only, as array literals: no text of an entry reaches the statement.
        func array(_ numbers: [Int64]) -> PostgresValue { .text("{" + numbers.map(String.init).joined(separator: ",") + "}") }
        try connection.execute("""
            INSERT INTO run_results (run_id, entry_id, rule_id, entry_version)
            SELECT $1, e, r, v FROM unnest($2::text::bigint[], $3::text::bigint[], $4::text::bigint[]) WITH ORDINALITY AS t(e, r, v, n)
            ORDER BY n
            ON CONFLICT DO NOTHING
            """, [.integer(runID), array(entries), array(rules), array(versions)])
    }

    /// The marker moves forward only, as on SQLite: a form carried forward up to a base
    /// run's extent keeps it while the scan goes through lower ids.
    func progress(formID: Int64, judgedThrough: Int64, counts: RunCounts) throws {
        try flush()
        try connection.execute("""
            UPDATE run_forms SET judged_through = greatest(judged_through, $1), entries_checked = entries_checked + $2,
                entries_invalid = entries_invalid + $3, entries_warned = entries_warned + $4,
                errors = errors + $5, warnings = warnings + $6
            WHERE run_id = $7 AND form_id = $8
            """, [.integer(judgedThrough), .int(counts.entriesChecked), .int(counts.entriesInvalid),
                  .int(counts.entriesWarned), .int(counts.errors), .int(counts.warnings), .integer(runID), .integer(formID)])
        try connection.execute("""
            UPDATE runs SET entries_checked = entries_checked + $1, entries_invalid = entries_invalid + $2,
                entries_warned = entries_warned + $3, errors = errors + $4, warnings = warnings + $5
            WHERE id = $6
            """, [.int(counts.entriesChecked), .int(counts.entriesInvalid), .int(counts.entriesWarned),
                  .int(counts.errors), .int(counts.warnings), .integer(runID)])
    }
}
