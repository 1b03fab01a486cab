/// The statements of reports: every failure of a run with its value and source, and the
/// groups, value counts and comparisons computed by SQLite (aggregates and sorts spill to
/// temporary files, so memory stays flat however many failures a run has).
extension SQLiteBackend {
    /// One row per failure of run ?1 (of form ?2 when not NULL): the rule, the entry, its
    /// key and whether that is secret, the value judged (masked with ?4 when secret, by the
    /// secrets ?3 or the judging type version's flag) and the import file and line.
    static func failureRows(multiForm: Bool) -> String {
        """
        SELECT b.*,
               CASE WHEN b.value_secret AND coalesce(b.raw, '') <> '' THEN ?4 ELSE b.raw END AS value,
               \(groupKey(.rule)) AS k_rule, \(groupKey(.field, multiForm: multiForm)) AS k_field,
               \(groupKey(.type)) AS k_type, b.entry_id AS k_entry
        FROM (
          SELECT r.entry_id AS entry_id, r.entry_version AS entry_version, r.rule_id AS rule_id,
                 ru.form_id AS form_id, fo.name AS form, ru.field AS field, ru.type AS type, ru.rule AS rule,
                 ru.severity AS severity, ru.message AS message, e.key AS entry_key,
                 (e.key IS NOT NULL AND e.key <> '' AND EXISTS (
                    SELECT 1 FROM json_each(?3, '$."' || ru.form_id || '"') AS j
                    WHERE formulary_has(cl.fields, e.vals, j.value, e.key))) AS key_secret,
                 (ru.field IS NOT NULL AND (coalesce(tv.secure, 0) = 1 OR EXISTS (
                    SELECT 1 FROM json_each(?3, '$."' || ru.form_id || '"') AS j
                    WHERE j.value = ru.field OR j.value = '*'))) AS value_secret,
                 CASE WHEN ru.field IS NULL THEN NULL
                      ELSE formulary_value(l.fields, coalesce(ev.vals, e.vals), ru.field) END AS raw,
                 i.source AS source_file,
                 CASE WHEN ev.entry_id IS NULL THEN e.source_line ELSE ev.source_line END AS source_line
          FROM run_results_all AS r
          JOIN run_rules AS ru ON ru.id = r.rule_id
          JOIN forms AS fo ON fo.id = ru.form_id
          LEFT JOIN entries AS e ON e.id = r.entry_id
          LEFT JOIN entry_versions AS ev
                 ON e.version <> r.entry_version AND ev.entry_id = r.entry_id AND ev.version = r.entry_version
          LEFT JOIN entry_layouts AS l ON l.id = coalesce(ev.layout_id, e.layout_id)
          LEFT JOIN entry_layouts AS cl ON cl.id = e.layout_id
          LEFT JOIN run_type_versions AS rt ON rt.run_id = r.run_id AND rt.form_id = ru.form_id AND rt.field = ru.field
          LEFT JOIN type_versions AS tv ON tv.id = rt.type_version_id
          LEFT JOIN imports AS i
                 ON i.id = CASE WHEN ev.entry_id IS NULL THEN coalesce(e.updated_in, e.created_in) ELSE ev.written_in END
          WHERE r.run_id = ?1 AND (?2 IS NULL OR ru.form_id = ?2)
        ) AS b
        """
    }

    /// The SQL of a group key over the columns of the failure rows' inner select.
    static func groupKey(_ key: ReportGroupKey, multiForm: Bool = false) -> String {
        switch key {
        case .rule: "b.rule"
        case .field:
            multiForm ? "CASE WHEN b.field IS NULL THEN '(form)' ELSE b.form || '.' || b.field END"
                      : "coalesce(b.field, '(form)')"
        case .type:
            """
            CASE WHEN b.type IS NOT NULL THEN (CASE WHEN instr(b.type, '(') > 0
                      THEN substr(b.type, 1, instr(b.type, '(') - 1) ELSE b.type END)
                 WHEN b.rule = 'unknown-field' THEN '(undeclared)' ELSE '(form)' END
            """
        case .entry: "b.entry_id"
        }
    }

    private func bindReport(_ statement: Statement, runID: Int64, formID: Int64?, secrets: ReportSecrets) {
        statement.bind(runID, at: 1)
        statement.bind(formID, at: 2)
        statement.bind(secrets.json, at: 3)
        statement.bind(secrets.mask, at: 4)
    }

    private static func source(_ row: Row, file: Int, line: Int) -> String? {
        guard let name = row.optionalString(file) else { return nil }
        return row.optionalInt64(line).map { "\(name):\($0)" } ?? name
    }

    /// Calls `body` with each failure (entry id, version, rule id, key, value, value secret,
    /// source), in entry order, or in the order of the groups of `groupedBy` (worst first,
    /// then entry id); stops when `body` returns false.
    package func forEachReportFailure(
        runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets, groupedBy: ReportGroupKey?,
        _ body: (_ entryID: Int64, _ version: Int, _ ruleID: Int64, _ key: String?, _ value: String?,
                 _ valueSecret: Bool, _ source: String?) throws -> Bool
    ) throws {
        let rows = Self.failureRows(multiForm: multiForm)
        let sql: String
        if let g = groupedBy {
            sql = """
                SELECT entry_id, entry_version, rule_id, entry_key, key_secret, value, value_secret, source_file, source_line
                FROM (SELECT f.*, sum(f.severity = 'error') OVER w AS g_errors, count(*) OVER w AS g_failures
                      FROM (\(rows)) AS f WINDOW w AS (PARTITION BY f.k_\(g.rawValue)))
                ORDER BY g_errors DESC, g_failures DESC, k_\(g.rawValue), entry_id, rule_id
                """
        } else {
            sql = """
                SELECT entry_id, entry_version, rule_id, entry_key, key_secret, value, value_secret, source_file, source_line
                FROM (\(rows)) ORDER BY entry_id, rule_id
                """
        }
        let statement = try database.makeStatement(sql)
        defer { statement.reset() }
        bindReport(statement, runID: runID, formID: formID, secrets: secrets)
        while try statement.step() {
            let row = Row(handle: statement.handle)
            let key = row.optionalString(3).map { row.bool(4) ? secrets.mask : $0 }
            let go = try body(row.int64(0), row.int(1), row.int64(2), key, row.optionalString(5), row.bool(6),
                              Self.source(row, file: 7, line: 8))
            if !go { break }
        }
    }

    /// The groups of a run's failures by `key`, worst first (most errors, then most failures,
    /// then key; entries by id); stops when `body` returns false.
    package func forEachReportGroup(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                                   by key: ReportGroupKey, _ body: (ReportGroupRow) throws -> Bool) throws {
        let k = "k_\(key.rawValue)"
        let sql: String
        if key == .entry {
            // The input comes in entry order, so the group of an entry is its consecutive rows:
            // min(rule_id) makes the bare columns (message, key) those of its first rule.
            sql = """
                SELECT \(k), count(*), 1, sum(severity = 'error'), sum(severity = 'warning'), message,
                       group_concat(CASE WHEN field IS NULL THEN rule ELSE field || '.' || rule END, char(31)),
                       min(rule_id), entry_key, key_secret,
                       group_concat(CASE WHEN value IS NULL THEN char(30) ELSE value END, char(31)),
                       source_file, source_line
                FROM (SELECT * FROM (\(Self.failureRows(multiForm: multiForm))) ORDER BY entry_id, rule_id)
                GROUP BY \(k) ORDER BY 4 DESC, 2 DESC, \(k)
                """
        } else {
            sql = """
                SELECT \(k), count(*), count(DISTINCT entry_id), sum(severity = 'error'), sum(severity = 'warning')
                FROM (\(Self.failureRows(multiForm: multiForm))) GROUP BY \(k) ORDER BY 4 DESC, 2 DESC, \(k)
                """
        }
        // Messages and rules of each group: few (one per distinct failed rule of the run).
        var details: [String: (messages: [(String, Int)], rules: [String])] = [:]
        if key != .entry {
            let rules = try database.makeStatement("""
                SELECT \(k), message, count(*), rule, min(entry_id)
                FROM (\(Self.failureRows(multiForm: multiForm))) GROUP BY \(k), rule_id ORDER BY \(k), 5, rule_id
                """)
            defer { rules.reset() }
            bindReport(rules, runID: runID, formID: formID, secrets: secrets)
            while try rules.step() {
                let row = Row(handle: rules.handle)
                let g = row.string(0)
                var d = details[g] ?? ([], [])
                let message = row.string(1), count = row.int(2), rule = row.string(3)
                if let i = d.messages.firstIndex(where: { $0.0 == message }) { d.messages[i].1 += count }
                else { d.messages.append((message, count)) }
                if !d.rules.contains(rule) { d.rules.append(rule) }
                details[g] = d
            }
        }
        let statement = try database.makeStatement(sql)
        defer { statement.reset() }
        bindReport(statement, runID: runID, formID: formID, secrets: secrets)
        while try statement.step() {
            let row = Row(handle: statement.handle)
            var group = ReportGroupRow(key: row.string(0), entryID: nil, entryKey: nil, failures: row.int(1),
                                       entries: row.int(2), errors: row.int(3), warnings: row.int(4),
                                       message: "", rules: [])
            if key == .entry {
                group.entryID = row.int64(0)
                group.message = row.string(5)
                group.rules = row.string(6).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                group.entryKey = row.optionalString(8).map { row.bool(9) ? secrets.mask : $0 }
                // NULL values stand as U+001E, so that the list keeps one slot per rule.
                group.values = (row.optionalString(10) ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false)
                    .map { $0 == "\u{1E}" ? nil : String($0) }
                group.source = Self.source(row, file: 11, line: 12)
            } else if let d = details[group.key] {
                // The most frequent message; the first seen among equals.
                var best = (message: "", count: 0)
                for (m, c) in d.messages where c > best.count { best = (m, c) }
                group.message = best.message
                group.rules = d.rules
            }
            if try !body(group) { break }
        }
    }

    /// The `limit` most frequent values of each group by `key` (rule or field), with their
    /// counts, most frequent first (then by value); secret and absent values are left out.
    package func reportTopValues(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                                by key: ReportGroupKey, limit: Int) throws -> [ReportValueCount] {
        let k = "k_\(key.rawValue)"
        let statement = try database.makeStatement("""
            SELECT g, value, c FROM (
              SELECT g, value, c, row_number() OVER (PARTITION BY g ORDER BY c DESC, value) AS n FROM (
                SELECT \(k) AS g, value, count(*) AS c FROM (\(Self.failureRows(multiForm: multiForm)))
                WHERE NOT value_secret AND raw IS NOT NULL GROUP BY \(k), value))
            WHERE n <= ?5 ORDER BY g, c DESC, value
            """)
        defer { statement.reset() }
        bindReport(statement, runID: runID, formID: formID, secrets: secrets)
        statement.bind(Int64(limit), at: 5)
        var out: [ReportValueCount] = []
        while try statement.step() {
            let row = Row(handle: statement.handle)
            out.append(ReportValueCount(key: row.string(0), value: row.string(1), count: row.int(2)))
        }
        return out
    }

    /// Failures of a run (of one form) counted by group key: what the change against the
    /// previous run compares.
    package func reportGroupCounts(runID: Int64, formID: Int64?, multiForm: Bool,
                                  by key: ReportGroupKey) throws -> [String: Int] {
        let k = "k_\(key.rawValue)"
        let statement = try database.makeStatement("""
            SELECT \(k), count(*) FROM (\(Self.failureRows(multiForm: multiForm))) GROUP BY \(k)
            """)
        defer { statement.reset() }
        bindReport(statement, runID: runID, formID: formID, secrets: ReportSecrets(byForm: [:], mask: ""))
        var out: [String: Int] = [:]
        while try statement.step() {
            let row = Row(handle: statement.handle)
            out[row.string(0)] = row.int(1)
        }
        return out
    }

    /// Entries of form ?2 with an error in run ?1.
    private static let failingIn = """
        SELECT DISTINCT r.entry_id AS entry_id FROM run_results_all AS r JOIN run_rules AS ru ON ru.id = r.rule_id
        WHERE r.run_id = ?1 AND ru.form_id = ?2 AND ru.severity = 'error'
        """

    /// Whether entry `x` has an error of form ?2 in run `run`.
    private static func hasError(run: String, entry: String) -> String {
        """
        EXISTS (SELECT 1 FROM run_results_all AS r2 JOIN run_rules AS ru2 ON ru2.id = r2.rule_id
                WHERE r2.run_id = \(run) AND r2.entry_id = \(entry) AND ru2.form_id = ?2 AND ru2.severity = 'error')
        """
    }

    /// The entries of form `formID` newly failing in run `runID` against `previousRunID`
    /// (`newly`), or fixed (failing before, judged now and without an error), by id; at
    /// most `limit` (nil for all). Returns how many there are in all.
    @discardableResult
    package func forEachComparedEntry(runID: Int64, previousRunID: Int64, formID: Int64, newly: Bool,
                                     previousJudgedThrough: Int64, judgedThrough: Int64, secrets: ReportSecrets,
                                     limit: Int?, _ body: (ReportEntryRow) throws -> Void) throws -> Int {
        // ?1 the run whose failing entries are listed, ?3 the other run, ?4 the bound on ids.
        let (listed, other) = newly ? (runID, previousRunID) : (previousRunID, runID)
        let condition = newly ? "NOT \(Self.hasError(run: "?3", entry: "x.entry_id"))"
                              : "x.entry_id <= ?4 AND NOT \(Self.hasError(run: "?3", entry: "x.entry_id"))"
        let count = try database.makeStatement("SELECT count(*) FROM (\(Self.failingIn)) AS x WHERE \(condition)")
        defer { count.reset() }
        count.bind(listed, at: 1)
        count.bind(formID, at: 2)
        count.bind(other, at: 3)
        if !newly { count.bind(judgedThrough, at: 4) }
        guard try count.step() else { return 0 }
        let total = Row(handle: count.handle).int(0)
        let list = try database.makeStatement("""
            SELECT x.entry_id, e.key,
                   (e.key IS NOT NULL AND e.key <> '' AND EXISTS (
                      SELECT 1 FROM json_each(?5, '$."' || ?2 || '"') AS j
                      WHERE formulary_has(l.fields, e.vals, j.value, e.key)))
            FROM (\(Self.failingIn)) AS x LEFT JOIN entries AS e ON e.id = x.entry_id
            LEFT JOIN entry_layouts AS l ON l.id = e.layout_id
            WHERE \(condition) ORDER BY x.entry_id LIMIT ?6
            """)
        defer { list.reset() }
        list.bind(listed, at: 1)
        list.bind(formID, at: 2)
        list.bind(other, at: 3)
        list.bind(newly ? previousJudgedThrough : judgedThrough, at: 4)
        list.bind(secrets.json, at: 5)
        list.bind(Int64(limit ?? -1), at: 6)
        while try list.step() {
            let row = Row(handle: list.handle)
            let id = row.int64(0)
            try body(ReportEntryRow(entryID: id, key: row.optionalString(1).map { row.bool(2) ? secrets.mask : $0 },
                                    judgedBefore: newly && id <= previousJudgedThrough))
        }
        return total
    }

    /// The failing entry ids of the newest run of each form (or of `form`), ascending:
    /// `entries list --failing`, streamed. Stops when `body` returns false.
    package func forEachFailingEntryID(runsByForm: [(runID: Int64, formID: Int64)], includeWarningsOnly: Bool,
                                      _ body: (Int64) throws -> Bool) throws {
        guard !runsByForm.isEmpty else { return }
        let parts = runsByForm.map { run, form in
            """
            SELECT r.entry_id AS entry_id FROM run_results_all AS r JOIN run_rules AS ru ON ru.id = r.rule_id
            WHERE r.run_id = \(run) AND ru.form_id = \(form)\(includeWarningsOnly ? "" : " AND ru.severity = 'error'")
            """
        }
        let statement = try database.makeStatement(
            "SELECT DISTINCT entry_id FROM (\(parts.joined(separator: " UNION ALL "))) ORDER BY entry_id")
        defer { statement.reset() }
        while try statement.step() {
            if try !body(Row(handle: statement.handle).int64(0)) { break }
        }
    }
}
