/// Reads that reports need beyond the run API of `Store+Runs.swift`: which entries a run
/// found invalid (for the comparison with the previous run) and entry keys.
extension Store {
    /// The ids of the entries of form `formID` that run `runID` found invalid (at least one
    /// error-severity result), ascending.
    public func invalidEntryIDs(ofRun runID: Int64, formID: Int64) throws -> [Int64] {
        let statement = try database.cachedStatement("""
            SELECT DISTINCT r.entry_id FROM run_results AS r JOIN run_rules AS rr ON rr.id = r.rule_id
            WHERE r.run_id = ? AND rr.form_id = ? AND rr.severity = 'error' ORDER BY r.entry_id
            """)
        try statement.bind([.integer(runID), .integer(formID)])
        return try statement.map { $0.int64(0) }
    }

    /// Whether any entry of the form was imported with a key (`import --key`).
    public func hasKeyedEntries(formID: Int64) throws -> Bool {
        // The partial index entries_by_key answers this without touching the entries.
        try database.scalarInt64(
            "SELECT EXISTS (SELECT 1 FROM entries WHERE form_id = ? AND key IS NOT NULL)",
            [.integer(formID)]) == 1
    }

    /// The keys of those of `ids` that have one, by id. Ids without a key, or unknown, are
    /// left out.
    public func entryKeys(_ ids: some Sequence<Int64>) throws -> [Int64: String] {
        let statement = try database.cachedStatement("SELECT key FROM entries WHERE id = ? AND key IS NOT NULL")
        var keys: [Int64: String] = [:]
        for id in ids {
            try statement.bind([.integer(id)])
            if let key = try statement.first({ $0.string(0) }) { keys[id] = key }
        }
        return keys
    }
}
