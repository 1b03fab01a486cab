import FormularyStore
/// Incremental runs on PostgreSQL: the statements of `SQLiteBackend+Carry.swift` in
/// PostgreSQL's dialect (see docs/storage.md, "Incremental runs"). Results are carried
/// forward by sharing the rows of the run that judged them, and the few copied go with
/// `INSERT … SELECT` on the server: none passes through this process.
package extension PostgresBackend {
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
        let baseShares = try connection.scalarInt64(
            "SELECT shares_from FROM run_forms WHERE run_id = $1 AND form_id = $2", [.integer(base), .integer(formID)])
        if baseShares != nil {
            // The base shares a third run's rows: this run shares them too, and holds its own
            // copies of only the base's own rows (entries judged since that third run).
            try copyOwnRows(runID: runID, formID: formID, fromRun: base, changedArguments: changedArguments)
            try connection.execute("""
                INSERT INTO run_rejudged (run_id, form_id, entry_id)
                SELECT $1, $2, entry_id FROM run_rejudged WHERE run_id = $3 AND form_id = $2
                """, [.integer(runID), .integer(formID), .integer(base)])
        }
        // The changed entries are judged again: the shared rows no longer stand for them.
        // $1–$3 as in the subquery; $4 run.
        try connection.execute("""
            INSERT INTO run_rejudged (run_id, form_id, entry_id)
            SELECT $4, $1, id FROM (\(Self.changedSubquery)) AS c ON CONFLICT DO NOTHING
            """, changedArguments + [.integer(runID)])
        try connection.execute("UPDATE run_forms SET shares_from = $1 WHERE run_id = $2 AND form_id = $3",
                               [.integer(baseShares ?? base), .integer(runID), .integer(formID)])
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
                      FROM run_results_all AS r JOIN run_rules AS rr ON rr.id = r.rule_id
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

    /// Copies run `base`'s own result rows of form `formID` for the entries not changed
    /// since it. Rows pointing at a rule of `base` point at a copy of it: new ids, the old
    /// ones plus one offset, as on SQLite (the same ids on both kinds), so that rows map to
    /// them by arithmetic, not a lookup (writers hold the writers' lock, so no other rule can
    /// take one of those ids meanwhile). Rows pointing at a rule of the run `base` shares
    /// from keep it.
    private func copyOwnRows(runID: Int64, formID: Int64, fromRun base: Int64,
                             changedArguments: [PostgresValue]) throws {
        let lowest = try connection.scalarInt64(
            "SELECT min(id) FROM run_rules WHERE run_id = $1 AND form_id = $2", [.integer(base), .integer(formID)])
        let highest = try connection.scalarInt64("SELECT coalesce(max(id), 0) FROM run_rules") ?? 0
        let offset = lowest.map { highest + 1 - $0 } ?? 0
        // $1–$3 as in the subquery; $4 run, $5 base, $6 offset.
        try connection.execute("""
            INSERT INTO run_results (run_id, entry_id, rule_id, entry_version)
            SELECT $4, r.entry_id, CASE WHEN rr.run_id = $5 THEN r.rule_id + $6 ELSE r.rule_id END, r.entry_version
            FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id
            WHERE r.run_id = $5 AND rr.form_id = $1 AND r.entry_id <= $3
              AND r.entry_id NOT IN (\(Self.changedSubquery))
            ORDER BY r.entry_id, r.rule_id
            """, changedArguments + [.integer(runID), .integer(base), .integer(offset)])
        guard lowest != nil else { return }
        // Only the rules a copied row uses.
        try connection.execute("""
            INSERT INTO run_rules (id, run_id, form_id, field, type, rule, severity, message)
            SELECT id + $3, $1, form_id, field, type, rule, severity, message FROM run_rules
            WHERE run_id = $2 AND form_id = $4
              AND id + $3 IN (SELECT DISTINCT rule_id FROM run_results WHERE run_id = $1)
            ORDER BY id
            """, [.integer(runID), .integer(base), .integer(offset), .integer(formID)])
    }
}
