/// Incremental runs: finding what changed since a run, and carrying the rest of its results
/// forward by sharing the stored rows of the run that judged them (see docs/storage.md,
/// "Incremental runs").
extension SQLiteBackend {
    package func latestCompleteRunID(formID: Int64) throws -> Int64? {
        try database.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN runs AS r ON r.id = rf.run_id
            WHERE rf.form_id = ? AND r.status = 'complete' AND rf.judged_through >= rf.last_id
            """, [.integer(formID)])
    }

    package func changedEntryIDs(formID: Int64, throughID: Int64, sinceImport: Int64) throws -> [Int64] {
        let statement = try database.cachedStatement("""
            SELECT id FROM entries INDEXED BY entries_by_update
            WHERE form_id = ?1 AND updated_in IS NOT NULL AND updated_in > ?2 AND id <= ?3 ORDER BY id
            """)
        try statement.bind([.integer(formID), .integer(sinceImport), .integer(throughID)])
        return try statement.map { $0.int64(0) }
    }

    /// The entries of the form changed since the base run, as a subquery (:F form, :I import,
    /// :T through id): read through `entries_by_update`, never a scan of `entries`.
    private static let changedSubquery = """
        SELECT id FROM entries INDEXED BY entries_by_update
        WHERE form_id = :F AND updated_in IS NOT NULL AND updated_in > :I AND id <= :T
        """

    package func carryForward(runID: Int64, formID: Int64, fromRun base: Int64, throughID: Int64,
                             sinceImport: Int64) throws -> RunCounts {
        let changedArguments: [String: SQLValue] = ["F": .integer(formID), "I": .integer(sinceImport),
                                                    "T": .integer(throughID)]
        let changed = try database.scalarInt64("SELECT count(*) FROM (\(Self.changedSubquery))",
                                               StatementArguments(named: changedArguments)) ?? 0
        let shared: [String: SQLValue] = ["R": .integer(runID), "B": .integer(base), "F": .integer(formID)]
        let baseShares = try database.scalarInt64(
            "SELECT shares_from FROM run_forms WHERE run_id = ? AND form_id = ?", [.integer(base), .integer(formID)])
        if baseShares != nil {
            // The base shares a third run's rows: this run shares them too, and holds its own
            // copies of only the base's own rows (entries judged since that third run).
            try copyOwnRows(runID: runID, formID: formID, fromRun: base, changedArguments: changedArguments)
            try database.execute("""
                INSERT INTO run_rejudged (run_id, form_id, entry_id)
                SELECT :R, :F, entry_id FROM run_rejudged WHERE run_id = :B AND form_id = :F
                """, StatementArguments(named: shared))
        }
        // The changed entries are judged again: the shared rows no longer stand for them.
        try database.execute("""
            INSERT OR IGNORE INTO run_rejudged (run_id, form_id, entry_id)
            SELECT :R, :F, id FROM (\(Self.changedSubquery))
            """, StatementArguments(named: changedArguments.merging(["R": .integer(runID)]) { a, _ in a }))
        try database.execute("UPDATE run_forms SET shares_from = ? WHERE run_id = ? AND form_id = ?",
                             [.integer(baseShares ?? base), .integer(runID), .integer(formID)])
        guard let baseForm = try runForms(runID: base).first(where: { $0.formID == formID }) else {
            throw StoreError.corrupt("run \(base) does not name form \(formID)")
        }
        // What the changed entries counted for in the base run: they are judged again.
        var carried = baseForm.counts
        carried.entriesChecked -= Int(changed)
        if changed > 0 {
            let statement = try database.cachedStatement("""
                SELECT coalesce(sum(e > 0), 0), coalesce(sum(e = 0 AND w > 0), 0),
                       coalesce(sum(e), 0), coalesce(sum(w), 0)
                FROM (SELECT sum(rr.severity = 'error') AS e, sum(rr.severity = 'warning') AS w
                      FROM run_results_all AS r JOIN run_rules AS rr ON rr.id = r.rule_id
                      WHERE r.run_id = :B AND rr.form_id = :F AND r.entry_id IN (\(Self.changedSubquery))
                      GROUP BY r.entry_id)
                """)
            try statement.bind(StatementArguments(named: changedArguments.merging(["B": .integer(base)]) { a, _ in a }))
            if let row = try statement.first({ (invalid: $0.int(0), warned: $0.int(1), errors: $0.int(2), warnings: $0.int(3)) }) {
                carried.entriesInvalid -= row.invalid
                carried.entriesWarned -= row.warned
                carried.errors -= row.errors
                carried.warnings -= row.warnings
            }
        }
        try database.execute("""
            UPDATE run_forms SET carried_from = ?, entries_carried = entries_carried + ? WHERE run_id = ? AND form_id = ?
            """, [.integer(base), .integer(Int64(carried.entriesChecked)), .integer(runID), .integer(formID)])
        try database.execute("UPDATE runs SET entries_carried = entries_carried + ? WHERE id = ?",
                             [.integer(Int64(carried.entriesChecked)), .integer(runID)])
        return carried
    }

    /// Copies run `base`'s own result rows of form `formID` for the entries not changed
    /// since it. Rows pointing at a rule of `base` point at a copy of it (new ids: the old
    /// ones plus one offset, so that rows map to them by arithmetic, not a lookup); rows
    /// pointing at a rule of the run `base` shares from keep it.
    private func copyOwnRows(runID: Int64, formID: Int64, fromRun base: Int64,
                             changedArguments: [String: SQLValue]) throws {
        let lowest = try database.scalarInt64(
            "SELECT min(id) FROM run_rules WHERE run_id = ? AND form_id = ?", [.integer(base), .integer(formID)])
        let highest = try database.scalarInt64("SELECT coalesce(max(id), 0) FROM run_rules") ?? 0
        let offset = lowest.map { highest + 1 - $0 } ?? 0
        let copy: [String: SQLValue] = ["R": .integer(runID), "B": .integer(base), "O": .integer(offset),
                                        "F": .integer(formID)]
        try database.execute("""
            INSERT INTO run_results (run_id, entry_id, rule_id, entry_version)
            SELECT :R, r.entry_id, CASE WHEN rr.run_id = :B THEN r.rule_id + :O ELSE r.rule_id END, r.entry_version
            FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id
            WHERE r.run_id = :B AND rr.form_id = :F AND r.entry_id <= :T
              AND r.entry_id NOT IN (\(Self.changedSubquery))
            ORDER BY r.entry_id, r.rule_id
            """, StatementArguments(named: copy.merging(changedArguments) { a, _ in a }))
        guard lowest != nil else { return }
        // Only the rules a copied row uses.
        try database.execute("""
            INSERT INTO run_rules (id, run_id, form_id, field, type, rule, severity, message)
            SELECT id + :O, :R, form_id, field, type, rule, severity, message FROM run_rules
            WHERE run_id = :B AND form_id = :F
              AND id + :O IN (SELECT DISTINCT rule_id FROM run_results WHERE run_id = :R)
            ORDER BY id
            """, StatementArguments(named: copy))
    }
}
