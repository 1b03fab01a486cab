/// Incremental runs on PostgreSQL: the statements of `SQLiteBackend+Carry.swift` in
/// PostgreSQL's dialect (see docs/storage.md, "Incremental runs"). Rows are carried forward
/// with `INSERT … SELECT` on the server: none passes through this process.
extension PostgresBackend {
    func latestCompleteRunID(formID: Int64) throws -> Int64? {
        try connection.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN runs AS r ON r.id = rf.run_id
            WHERE rf.form_id = $1 AND r.status = 'complete' AND rf.judged_through >= rf.last_id
            """, [.integer(formID)])
    }

    func changedEntryIDs(formID: Int64, throughID: Int64, sinceImport: Int64) throws -> [Int64] {
        try connection.execute("""
            SELECT id FROM entries
            WHERE form_id = $1 AND updated_in IS NOT NULL AND updated_in > $2 AND id <= $3 ORDER BY id
            """, [.integer(formID), .integer(sinceImport), .integer(throughID)]).map { row in try row.int64(0) }
    }

    /// The entries of the form changed since the base run, as a subquery ($1 form, $2 import,
    /// $3 through id). `updated_in IS NOT NULL` is spelled out so that the planner may use the
    /// partial index `entries_by_update` also in a prepared statement's generic plan, where
    /// it cannot see that `updated_in > $2` implies it.
    private static let changedSubquery = """
        SELECT id FROM entries
        WHERE form_id = $1 AND updated_in IS NOT NULL AND updated_in > $2 AND id <= $3
        """

    func carryForward(runID: Int64, formID: Int64, fromRun base: Int64, throughID: Int64,
                      sinceImport: Int64) throws -> RunCounts {
        let changedArguments: [PostgresValue] = [.integer(formID), .integer(sinceImport), .integer(throughID)]
        let changed = try connection.scalarInt64("SELECT count(*) FROM (\(Self.changedSubquery)) AS c",
                                                 changedArguments) ?? 0
        if let lowest = try connection.scalarInt64(
            "SELECT min(id) FROM run_rules WHERE run_id = $1 AND form_id = $2", [.integer(base), .integer(formID)]) {
            // Copied rules keep their order and get ids above every rule stored: the old id
            // plus one offset, as on SQLite (the same ids on both kinds), so that result rows
            // map to them by arithmetic, not a lookup. Writers hold the writers' lock, so no
            // other rule can take one of those ids meanwhile.
            let highest = try connection.scalarInt64("SELECT coalesce(max(id), 0) FROM run_rules") ?? 0
            let offset = highest + 1 - lowest
            // $1–$3 as in the subquery; $4 run, $5 base, $6 offset.
            try connection.execute("""
                INSERT INTO run_results (run_id, entry_id, rule_id, entry_version)
                SELECT $4, r.entry_id, r.rule_id + $6, r.entry_version FROM run_results AS r
                WHERE r.run_id = $5 AND r.entry_id <= $3
                  AND r.rule_id IN (SELECT id FROM run_rules WHERE run_id = $5 AND form_id = $1)
                  AND r.entry_id NOT IN (\(Self.changedSubquery))
                ORDER BY r.entry_id, r.rule_id
                """, changedArguments + [.integer(runID), .integer(base), .integer(offset)])
            // Only the rules a carried row uses: a full run has no rule that no entry failed.
            // Without changed entries every rule of the base run is used (it has none other).
            try connection.execute("""
                INSERT INTO run_rules (id, run_id, form_id, field, type, rule, severity, message)
                SELECT id + $3, $1, form_id, field, type, rule, severity, message FROM run_rules
                WHERE run_id = $2 AND form_id = $4
                  AND ($5 OR id + $3 IN (SELECT DISTINCT rule_id FROM run_results WHERE run_id = $1))
                ORDER BY id
                """, [.integer(runID), .integer(base), .integer(offset), .integer(formID), .bool(changed == 0)])
        }
        guard let baseForm = try runForms(runID: base).first(where: { $0.formID == formID }) else {
            throw StoreError.corrupt("run \(base) does not name form \(formID)")
        }
        // What the changed entries counted for in the base run: they are judged again.
        var carried = baseForm.counts
        carried.entriesChecked -= Int(changed)
        if changed > 0 {
            // Counts are bigint (sum over bigint would be numeric, which rows do not read).
            let row = try connection.execute("""
                SELECT count(*) FILTER (WHERE e > 0), count(*) FILTER (WHERE e = 0 AND w > 0),
                       coalesce(sum(e), 0)::bigint, coalesce(sum(w), 0)::bigint
                FROM (SELECT count(*) FILTER (WHERE rr.severity = 'error') AS e,
                             count(*) FILTER (WHERE rr.severity = 'warning') AS w
                      FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id
                      WHERE r.run_id = $4 AND rr.form_id = $1 AND r.entry_id IN (\(Self.changedSubquery))
                      GROUP BY r.entry_id) AS per_entry
                """, changedArguments + [.integer(base)]).first
            if let row {
                carried.entriesInvalid -= try row.int(0)
                carried.entriesWarned -= try row.int(1)
                carried.errors -= try row.int(2)
                carried.warnings -= try row.int(3)
            }
        }
        try connection.execute("""
            UPDATE run_forms SET carried_from = $1, entries_carried = entries_carried + $2 WHERE run_id = $3 AND form_id = $4
            """, [.integer(base), .int(carried.entriesChecked), .integer(runID), .integer(formID)])
        try connection.execute("UPDATE runs SET entries_carried = entries_carried + $1 WHERE id = $2",
                               [.int(carried.entriesChecked), .integer(runID)])
        return carried
    }
}
