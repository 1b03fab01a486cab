import FormularyStore

/// The latest verdict on an entry, for `entries list` and `entries show`.
struct EntryVerdict {
    var runID: Int64
    var errors: Int
    var warnings: Int
    var isFailing: Bool { errors > 0 }
    var summary: String {
        if errors > 0 { return "invalid (run \(runID): \(errors) error\(errors == 1 ? "" : "s"))" }
        if warnings > 0 { return "valid with \(warnings) warning\(warnings == 1 ? "" : "s") (run \(runID))" }
        return "valid (run \(runID))"
    }
}

struct EntryVerdicts {
    let store: Store

    /// The newest completed run whose judged range covers the entry, and the entry's
    /// error and warning counts in it (no result rows means it passed). A result row points
    /// at its run's distinct failed rule (`run_rules`), which carries the severity.
    func latest(entryID: Int64) throws -> EntryVerdict? {
        let statement = try store.database.cachedStatement("""
            SELECT r.id,
                   (SELECT count(*) FROM run_results AS x JOIN run_rules AS rr ON rr.id = x.rule_id
                    WHERE x.run_id = r.id AND x.entry_id = e.id AND rr.severity = 'error'),
                   (SELECT count(*) FROM run_results AS x JOIN run_rules AS rr ON rr.id = x.rule_id
                    WHERE x.run_id = r.id AND x.entry_id = e.id AND rr.severity = 'warning')
            FROM entries AS e
            JOIN run_forms AS rf ON rf.form_id = e.form_id AND rf.judged_through >= e.id
            JOIN runs AS r ON r.id = rf.run_id AND r.status = 'complete'
            WHERE e.id = ? ORDER BY r.id DESC LIMIT 1
            """)
        try statement.bind([.integer(entryID)])
        return try statement.first { row in
            EntryVerdict(runID: row.int64(0), errors: row.int(1), warnings: row.int(2))
        }
    }
}
