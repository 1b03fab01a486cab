/// Incremental runs: finding what changed since a run, and carrying the rest of its results
/// forward with `INSERT … SELECT` (see docs/storage.md, "Incremental runs").
extension SQLiteBackend {
    public func latestCompleteRunID(formID: Int64) throws -> Int64? {
        try database.scalarInt64("""
            SELECT max(rf.run_id) FROM run_forms AS rf JOIN runs AS r ON r.id = rf.run_id
            WHERE rf.form_id = ? AND r.status = 'complete' AND rf.judged_through >= rf.last_id
            """, [.integer(formID)])
    }

    public func changedEntryIDs(formID: Int64, throughID: Int64, sinceImport: Int64) throws -> [Int64] {
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

    public func carryForward(runID: Int64, formID: Int64, fromRun base: Int64, throughID: Int64,
                             sinceImport: Int64) throws -> RunCounts {
        let changedArguments: [String: SQLValue] = ["F": .integer(formID), "I": .integer(sinceImport),
                                                    "T": .integer(throughID)]
        let changed = try database.scalarInt64("SELECT count(*) FROM (\(Self.changedSubquery))",
                                               StatementArguments(named: changedArguments)) ?? 0
        if let lowest = try database.scalarInt64(
            "SELECT min(id) FROM run_rules WHERE run_id = ? AND form_id = ?", [.integer(base), .integer(formID)]) {
            // Copied rules keep their order and get ids above every rule stored: the old id
            // plus one offset, so that result rows map to them by arithmetic, not a lookup.
            let highest = try database.scalarInt64("SELECT coalesce(max(id), 0) FROM run_rules") ?? 0
            let offset = highest + 1 - lowest
            let copy: [String: SQLValue] = ["R": .integer(runID), "B": .integer(base), "O": .integer(offset),
                                            "F": .integer(formID)]
            try database.execute("""
                INSERT INTO run_results (run_id, entry_id, rule_id, entry_version)
                SELECT :R, r.entry_id, r.rule_id + :O, r.entry_version FROM run_results AS r
                WHERE r.run_id = :B AND r.entry_id <= :T
                  AND r.rule_id IN (SELECT id FROM run_rules WHERE run_id = :B AND form_id = :F)
                  AND r.entry_id NOT IN (\(Self.changedSubquery))
                ORDER BY r.entry_id, r.rule_id
                """, StatementArguments(named: copy.merging(changedArguments) { a, _ in a }))
            // Only the rules a carried row uses: a full run has no rule that no entry failed.
            // Without changed entries every rule of the base run is used (it has none other).
            try database.execute("""
                INSERT INTO run_rules (id, run_id, form_id, field, type, rule, severity, message)
                SELECT id + :O, :R, form_id, field, type, rule, severity, message FROM run_rules
                WHERE run_id = :B AND form_id = :F
                  AND (\(changed == 0 ? "1" : "0")
                       OR id + :O IN (SELECT DISTINCT rule_id FROM run_results WHERE run_id = :R))
                ORDER BY id
                """, StatementArguments(named: copy))
        }
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
                      FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id
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
}
