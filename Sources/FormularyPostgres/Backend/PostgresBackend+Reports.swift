import FormularyStore
/// The statements of reports on PostgreSQL: those of `SQLiteBackend+Reports.swift` in
/// PostgreSQL's dialect. Stored values are read on the server by the functions of
/// `migrations/postgres/0005_entry_sources.sql` (`formulary_value`, `formulary_has`, the
/// counterparts of SQLite's), aggregates and sorts run there (spilling to disk as needed),
/// and rows come back through a cursor a page at a time, so that memory stays flat however
/// many failures a run has. Text keys sort as bytes (`COLLATE "C"`), as on SQLite.
package extension PostgresBackend {
    /// The names in the secrets ($3, `{"FORM_ID": ["field", …] | "*"}`) of form `form`, as a
    /// set of rows `j(value)`: none for a form it does not name, `*` alone for every field.
    static func secretNames(form: String) -> String {
        """
        jsonb_array_elements_text(CASE jsonb_typeof($3::jsonb -> (\(form))::text)
            WHEN 'array' THEN $3::jsonb -> (\(form))::text
            WHEN 'string' THEN jsonb_build_array($3::jsonb -> (\(form))::text)
            ELSE '[]'::jsonb END) AS j(value)
        """
    }

    /// One row per failure of run $1 (of form $2 when not NULL): the rule, the entry, its
    /// key and whether that is secret, the value judged (masked with $4 when secret, by the
    /// secrets $3 or the judging type version's flag) and the import file and line.
    static func failureRows(multiForm: Bool) -> String {
        """
        SELECT b.*,
               CASE WHEN b.value_secret AND coalesce(b.raw, '') <> '' THEN $4::text ELSE b.raw END AS value,
               \(groupKey(.rule)) AS k_rule, \(groupKey(.field, multiForm: multiForm)) AS k_field,
               \(groupKey(.type)) AS k_type, b.entry_id AS k_entry
        FROM (
          SELECT r.entry_id AS entry_id, r.entry_version AS entry_version, r.rule_id AS rule_id,
                 ru.form_id AS form_id, fo.name AS form, ru.field AS field, ru.type AS type, ru.rule AS rule,
                 ru.severity AS severity, ru.message AS message, e.key AS entry_key,
                 (e.key IS NOT NULL AND e.key <> '' AND EXISTS (
                    SELECT 1 FROM \(secretNames(form: "ru.form_id"))
                    WHERE formulary_has(cl.fields, e.vals, j.value, e.key))) AS key_secret,
                 (ru.field IS NOT NULL AND (coalesce(tv.secure, false) OR EXISTS (
                    SELECT 1 FROM \(secretNames(form: "ru.form_id"))
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
          WHERE r.run_id = $1 AND ($2::bigint IS NULL OR ru.form_id = $2)
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
            CASE WHEN b.type IS NOT NULL THEN (CASE WHEN strpos(b.type, '(') > 0
                      THEN substr(b.type, 1, strpos(b.type, '(') - 1) ELSE b.type END)
                 WHEN b.rule = 'unknown-field' THEN '(undeclared)' ELSE '(form)' END
            """
        case .entry: "b.entry_id"
        }
    }

    /// How a group key sorts: text as bytes, as SQLite sorts it; entries by id.
    static func keyOrder(_ key: ReportGroupKey) -> String {
        key == .entry ? "k_entry" : "k_\(key.rawValue) COLLATE \"C\""
    }

    private static func reportArguments(runID: Int64, formID: Int64?, secrets: ReportSecrets) -> [PostgresValue] {
        [.integer(runID), .integer(formID), .text(secrets.json), .text(secrets.mask)]
    }

    private static func source(_ row: PostgresRow, file: Int, line: Int) throws -> String? {
        guard let name = try row.optionalString(file) else { return nil }
        return try row.optionalInt64(line).map { "\(name):\($0)" } ?? name
    }

    func forEachReportFailure(
        runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets, groupedBy: ReportGroupKey?,
        _ body: (_ entryID: Int64, _ version: Int, _ ruleID: Int64, _ key: String?, _ value: String?,
                 _ valueSecret: Bool, _ source: String?) throws -> Bool
    ) throws {
        let rows = Self.failureRows(multiForm: multiForm)
        let columns = "entry_id, entry_version, rule_id, entry_key, key_secret, value, value_secret, source_file, source_line"
        let sql: String
        if let g = groupedBy {
            sql = """
                SELECT \(columns)
                FROM (SELECT f.*, sum(CASE WHEN f.severity = 'error' THEN 1 ELSE 0 END) OVER w AS g_errors,
                             count(*) OVER w AS g_failures
                      FROM (\(rows)) AS f WINDOW w AS (PARTITION BY f.k_\(g.rawValue))) AS grouped
                ORDER BY g_errors DESC, g_failures DESC, \(Self.keyOrder(g)), entry_id, rule_id
                """
        } else {
            sql = "SELECT \(columns) FROM (\(rows)) AS f ORDER BY entry_id, rule_id"
        }
        try connection.forEachRow(sql, Self.reportArguments(runID: runID, formID: formID, secrets: secrets)) { row in
            let key = try row.optionalString(3).map { try row.bool(4) ? secrets.mask : $0 }
            return try body(try row.int64(0), try row.int(1), try row.int64(2), key, try row.optionalString(5),
                            try row.bool(6), try Self.source(row, file: 7, line: 8))
        }
    }

    func forEachReportGroup(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                            by key: ReportGroupKey, _ body: (ReportGroupRow) throws -> Bool) throws {
        let k = "k_\(key.rawValue)"
        let rows = Self.failureRows(multiForm: multiForm)
        let arguments = Self.reportArguments(runID: runID, formID: formID, secrets: secrets)
        let sql: String
        if key == .entry {
            // The columns of an entry's first rule (by id), as SQLite's bare columns beside min(rule_id).
            func first(_ column: String) -> String { "(array_agg(\(column) ORDER BY rule_id))[1]" }
            sql = """
                SELECT \(k)::text, count(*), 1, count(*) FILTER (WHERE severity = 'error'),
                       count(*) FILTER (WHERE severity = 'warning'), \(first("message")),
                       string_agg(CASE WHEN field IS NULL THEN rule ELSE field || '.' || rule END, chr(31) ORDER BY rule_id),
                       min(rule_id), \(first("entry_key")), \(first("key_secret")),
                       string_agg(CASE WHEN value IS NULL THEN chr(30) ELSE value END, chr(31) ORDER BY rule_id),
                       \(first("source_file")), \(first("source_line"))
                FROM (\(rows)) AS f GROUP BY \(k) ORDER BY 4 DESC, 2 DESC, \(k)
                """
        } else {
            sql = """
                SELECT \(k), count(*), count(DISTINCT entry_id), count(*) FILTER (WHERE severity = 'error'),
                       count(*) FILTER (WHERE severity = 'warning')
                FROM (\(rows)) AS f GROUP BY \(k) ORDER BY 4 DESC, 2 DESC, \(Self.keyOrder(key))
                """
        }
        // Messages and rules of each group: few (one per distinct failed rule of the run).
        var details: [String: (messages: [(String, Int)], rules: [String])] = [:]
        if key != .entry {
            for row in try connection.execute("""
                SELECT \(k), message, count(*), rule, min(entry_id)
                FROM (\(rows)) AS f GROUP BY \(k), rule_id, message, rule ORDER BY \(Self.keyOrder(key)), 5, rule_id
                """, arguments) {
                let g = try row.string(0)
                var d = details[g] ?? ([], [])
                let message = try row.string(1), count = try row.int(2), rule = try row.string(3)
                if let i = d.messages.firstIndex(where: { $0.0 == message }) { d.messages[i].1 += count }
                else { d.messages.append((message, count)) }
                if !d.rules.contains(rule) { d.rules.append(rule) }
                details[g] = d
            }
        }
        try connection.forEachRow(sql, arguments) { row in
            var group = ReportGroupRow(key: try row.string(0), entryID: nil, entryKey: nil, failures: try row.int(1),
                                       entries: try row.int(2), errors: try row.int(3), warnings: try row.int(4),
                                       message: "", rules: [])
            if key == .entry {
                group.entryID = Int64(group.key)
                group.message = try row.string(5)
                group.rules = try row.string(6).split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
                group.entryKey = try row.optionalString(8).map { try row.bool(9) ? secrets.mask : $0 }
                // NULL values stand as U+001E, so that the list keeps one slot per rule.
                group.values = (try row.optionalString(10) ?? "").split(separator: "\u{1F}", omittingEmptySubsequences: false)
                    .map { $0 == "\u{1E}" ? nil : String($0) }
                group.source = try Self.source(row, file: 11, line: 12)
            } else if let d = details[group.key] {
                // The most frequent message; the first seen among equals.
                var best = (message: "", count: 0)
                for (m, c) in d.messages where c > best.count { best = (m, c) }
                group.message = best.message
                group.rules = d.rules
            }
            return try body(group)
        }
    }

    func reportTopValues(runID: Int64, formID: Int64?, multiForm: Bool, secrets: ReportSecrets,
                         by key: ReportGroupKey, limit: Int) throws -> [ReportValueCount] {
        let k = "k_\(key.rawValue)"
        return try connection.execute("""
            SELECT g::text, value, c FROM (
              SELECT g, value, c, row_number() OVER (PARTITION BY g ORDER BY c DESC, value COLLATE "C") AS n FROM (
                SELECT \(k) AS g, value, count(*) AS c FROM (\(Self.failureRows(multiForm: multiForm))) AS f
                WHERE NOT value_secret AND raw IS NOT NULL GROUP BY \(k), value) AS counted) AS ranked
            WHERE n <= $5 ORDER BY g\(key == .entry ? "" : " COLLATE \"C\""), c DESC, value COLLATE "C"
            """, Self.reportArguments(runID: runID, formID: formID, secrets: secrets) + [.int(limit)]).map { row in
            ReportValueCount(key: try row.string(0), value: try row.string(1), count: try row.int(2))
        }
    }

    func reportGroupCounts(runID: Int64, formID: Int64?, multiForm: Bool,
                           by key: ReportGroupKey) throws -> [String: Int] {
        let k = "k_\(key.rawValue)"
        var out: [String: Int] = [:]
        for row in try connection.execute("""
            SELECT \(k)::text, count(*) FROM (\(Self.failureRows(multiForm: multiForm))) AS f GROUP BY \(k)
            """, Self.reportArguments(runID: runID, formID: formID, secrets: ReportSecrets(byForm: [:], mask: ""))) {
            out[try row.string(0)] = try row.int(1)
        }
        return out
    }

    /// Entries of form $2 with an error in run $1.
    private static let failingIn = """
        SELECT DISTINCT r.entry_id AS entry_id FROM run_results_all AS r JOIN run_rules AS ru ON ru.id = r.rule_id
        WHERE r.run_id = $1 AND ru.form_id = $2 AND ru.severity = 'error'
        """

    /// Whether entry `entry` has an error of form $2 in run $3.
    private static func hasError(entry: String) -> String {
        """
        EXISTS (SELECT 1 FROM run_results_all AS r2 JOIN run_rules AS ru2 ON ru2.id = r2.rule_id
                WHERE r2.run_id = $3 AND r2.entry_id = \(entry) AND ru2.form_id = $2 AND ru2.severity = 'error')
        """
    }

    @discardableResult
    func forEachComparedEntry(runID: Int64, previousRunID: Int64, formID: Int64, newly: Bool,
                              previousJudgedThrough: Int64, judgedThrough: Int64, secrets: ReportSecrets,
                              limit: Int?, _ body: (ReportEntryRow) throws -> Void) throws -> Int {
        // $1 the run whose failing entries are listed, $3 the other run, $4 the bound on ids.
        let (listed, other) = newly ? (runID, previousRunID) : (previousRunID, runID)
        let condition = newly ? "NOT \(Self.hasError(entry: "x.entry_id"))"
                              : "x.entry_id <= $4 AND NOT \(Self.hasError(entry: "x.entry_id"))"
        var countArguments: [PostgresValue] = [.integer(listed), .integer(formID), .integer(other)]
        if !newly { countArguments.append(.integer(judgedThrough)) }
        let total = Int(try connection.scalarInt64("SELECT count(*) FROM (\(Self.failingIn)) AS x WHERE \(condition)",
                                                   countArguments) ?? 0)
        // Here $3 is the other run: the secrets come as $5.
        let names = Self.secretNames(form: "$2").replacingOccurrences(of: "$3::jsonb", with: "$5::jsonb")
        try connection.forEachRow("""
            SELECT x.entry_id, e.key,
                   (e.key IS NOT NULL AND e.key <> '' AND EXISTS (
                      SELECT 1 FROM \(names) WHERE formulary_has(l.fields, e.vals, j.value, e.key)))
            FROM (\(Self.failingIn)) AS x LEFT JOIN entries AS e ON e.id = x.entry_id
            LEFT JOIN entry_layouts AS l ON l.id = e.layout_id
            WHERE \(condition) ORDER BY x.entry_id LIMIT $6::bigint
            """, [.integer(listed), .integer(formID), .integer(other), .integer(newly ? previousJudgedThrough : judgedThrough),
                  .text(secrets.json), .integer(limit.map(Int64.init))]) { row in
            let id = try row.int64(0)
            try body(ReportEntryRow(entryID: id, key: try row.optionalString(1).map { try row.bool(2) ? secrets.mask : $0 },
                                    judgedBefore: newly && id <= previousJudgedThrough))
            return true
        }
        return total
    }

    func forEachFailingEntryID(runsByForm: [(runID: Int64, formID: Int64)], includeWarningsOnly: Bool,
                               _ body: (Int64) throws -> Bool) throws {
        guard !runsByForm.isEmpty else { return }
        // Integers only, written into the statement.
        let parts = runsByForm.map { run, form in
            """
            SELECT r.entry_id AS entry_id FROM run_results_all AS r JOIN run_rules AS ru ON ru.id = r.rule_id
            WHERE r.run_id = \(run) AND ru.form_id = \(form)\(includeWarningsOnly ? "" : " AND ru.severity = 'error'")
            """
        }
        try connection.forEachRow(
            "SELECT DISTINCT entry_id FROM (\(parts.joined(separator: " UNION ALL "))) AS u ORDER BY entry_id", []) { row in
            try body(try row.int64(0))
        }
    }
}
