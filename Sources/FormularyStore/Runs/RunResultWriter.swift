import FormularyRules
/// Writes the results of one validation run, batch by batch, with prepared statements.
///
/// Each distinct (form, field, type, rule, severity, message) is stored once per run in
/// `run_rules`; result rows only point to it. A batch is: ``add(entryID:entryVersion:ruleID:)``
/// for each failed rule, then ``progress(formID:judgedThrough:counts:)``, all inside one
/// ``Store/transaction(_:)``, so that a batch's results, the progress marker and the counts
/// commit together or not at all. Result rows are inserted ``rowsPerInsert`` at a time (one
/// statement step per group instead of per row, which halved the writer's time); `progress`
/// writes the rest, so it must come before the transaction commits.
///
/// After a batch fails to commit, the rule ids this writer remembers may name rolled-back
/// rows: stop the run (mark it incomplete) rather than writing more batches with it.
public final class RunResultWriter {
    public let runID: Int64
    private let store: Store
    private let insertRule: Statement
    private let insertResult: Statement
    private let insertResults: Statement
    /// Result rows not yet inserted: (entry id, rule id, entry version) triples.
    private var pending: [Int64] = []
    static let rowsPerInsert = 64
    private let updateForm: Statement
    private let updateRun: Statement
    private var ruleIDs: [RuleKey: Int64] = [:]
    /// The digest of the rows written, fed in `run_results` order: an entry's rules are held
    /// until the next entry comes, then fed by rule id (entries come in id order).
    private let digest = DataDigests.ResultsAccumulator()
    private var entryRules: [(rule: Int64, version: Int64)] = []
    private var entryOfRules: Int64 = -1

    private struct RuleKey: Hashable {
        var formID: Int64
        var field: String?
        var type: String?
        var rule: String
        var severity: Severity
        var message: String
    }

    init(store: Store, runID: Int64) throws {
        self.store = store
        self.runID = runID
        let db = store.database
        insertRule = try db.makeStatement("""
            INSERT INTO run_rules (run_id, form_id, field, type, rule, severity, message) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        insertResult = try db.makeStatement(
            "INSERT OR IGNORE INTO run_results (run_id, entry_id, rule_id, entry_version) VALUES (?, ?, ?, ?)")
        insertResults = try db.makeStatement(
            "INSERT OR IGNORE INTO run_results (run_id, entry_id, rule_id, entry_version) VALUES "
                + Array(repeating: "(?1, ?, ?, ?)", count: Self.rowsPerInsert).joined(separator: ", "))
        pending.reserveCapacity(3 * Self.rowsPerInsert)
        updateForm = try db.makeStatement("""
            UPDATE run_forms SET judged_through = ?, entries_checked = entries_checked + ?,
                entries_invalid = entries_invalid + ?, entries_warned = entries_warned + ?,
                errors = errors + ?, warnings = warnings + ?
            WHERE run_id = ? AND form_id = ?
            """)
        updateRun = try db.makeStatement("""
            UPDATE runs SET entries_checked = entries_checked + ?, entries_invalid = entries_invalid + ?,
                entries_warned = entries_warned + ?, errors = errors + ?, warnings = warnings + ?
            WHERE id = ?
            """)
    }

    /// The id of this failed rule in the run, inserted on first use.
    public func ruleID(formID: Int64, field: String?, type: String?, rule: String,
                       severity: Severity, message: String) throws -> Int64 {
        let key = RuleKey(formID: formID, field: field, type: type, rule: rule, severity: severity, message: message)
        if let id = ruleIDs[key] { return id }
        insertRule.bind(runID, at: 1)
        insertRule.bind(formID, at: 2)
        insertRule.bind(field, at: 3)
        insertRule.bind(type, at: 4)
        insertRule.bind(rule, at: 5)
        insertRule.bind(severity.rawValue, at: 6)
        insertRule.bind(message, at: 7)
        try insertRule.execute()
        let id = store.database.lastInsertRowID
        ruleIDs[key] = id
        return id
    }

    /// Records one failed rule of one entry (the same rule twice for an entry is kept once).
    public func add(entryID: Int64, entryVersion: Int, ruleID: Int64) throws {
        if entryID != entryOfRules {
            feedEntryRules()
            entryOfRules = entryID
        }
        entryRules.append((ruleID, Int64(entryVersion)))
        pending.append(entryID)
        pending.append(ruleID)
        pending.append(Int64(entryVersion))
        if pending.count == 3 * Self.rowsPerInsert { try flush() }
    }

    /// Inserts the pending result rows: a full group with one statement, a partial one row by
    /// row. ``progress(formID:judgedThrough:counts:)`` calls it.
    public func flush() throws {
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

    /// Moves the form's progress marker to `judgedThrough` and adds the batch's counts to the
    /// form's and the run's.
    public func progress(formID: Int64, judgedThrough: Int64, counts: RunCounts) throws {
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

    /// What this writer wrote, for the run's end record (``Store/finishRun(id:status:error:actor:written:)``).
    /// Call it once, after the last batch committed; it describes the run's results only when
    /// every batch did.
    public func writtenResults() -> WrittenResults {
        feedEntryRules()
        let (hash, count) = digest.finish()
        return WrittenResults(runID: runID, hash: hash, count: count)
    }

    private func feedEntryRules() {
        guard !entryRules.isEmpty else { return }
        entryRules.sort { $0.rule < $1.rule }
        var previous: Int64 = -1
        // The same rule twice for an entry is inserted once (INSERT OR IGNORE), so fed once.
        for (rule, version) in entryRules where rule != previous {
            digest.add(entryID: entryOfRules, ruleID: rule, entryVersion: version)
            previous = rule
        }
        entryRules.removeAll(keepingCapacity: true)
    }
}

/// The digest of the results a ``RunResultWriter`` wrote, for the run's end record.
public struct WrittenResults: Sendable {
    let runID: Int64
    let hash: [UInt8]
    let count: Int
}
