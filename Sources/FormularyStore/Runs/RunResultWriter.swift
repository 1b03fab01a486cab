import FormularyRules

/// Writes the results of one validation run, batch by batch.
///
/// Each distinct (form, field, type, rule, severity, message) is stored once per run in
/// `run_rules`; result rows only point to it. A batch is: ``add(entryID:entryVersion:ruleID:)``
/// for each failed rule, then ``progress(formID:judgedThrough:counts:)``, all inside one
/// ``Store/transaction(_:)``, so that a batch's results, the progress marker and the counts
/// commit together or not at all. The backend may hold results back until `progress`, so it
/// must come before the transaction commits.
///
/// After a batch fails to commit, the rule ids this writer remembers may name rolled-back
/// rows: stop the run (mark it incomplete) rather than writing more batches with it.
package final class RunResultWriter {
    // The `var`s are `@exclusivity(unchecked)`: a writer is used by one thread, and no method
    // touches a property while another access to it is open, so the runtime's check (two calls
    // into the runtime per access, per result row several: 1.2% of a 1M run's instructions)
    // guards nothing here.
    package let runID: Int64
    private let rows: any RunResultRowWriting
    @exclusivity(unchecked) private var ruleIDs: [RuleKey: Int64] = [:]
    /// The digest of the rows written, fed in `run_results` order: an entry's rules are held
    /// until the next entry comes, then fed by rule id (entries come in id order).
    private let digest = DataDigests.ResultsAccumulator()
    @exclusivity(unchecked) private var entryRules: [(rule: Int64, version: Int64)] = []
    @exclusivity(unchecked) private var entryOfRules: Int64 = -1
    /// The highest entry id added so far, and whether an entry came after a higher one (a
    /// run's final `unique` batch): then the digest is computed from the rows as stored.
    @exclusivity(unchecked) private var highestEntry: Int64 = -1
    @exclusivity(unchecked) private var addedOutOfOrder = false
    /// With ``keepRowsForDigest()``: the rows for the digest, kept instead of fed.
    @exclusivity(unchecked) private var keptRows: [(entry: Int64, rule: Int64, version: Int64)]?
    /// Whether rows were carried forward (``carryForward(formID:fromRun:throughID:sinceImport:)``):
    /// rows the storage copied never pass through this writer, so the digest of the run's own
    /// rows is read back from the store (shared rows are not the run's: its digest names the
    /// run it shares them from).
    @exclusivity(unchecked) private var carried = false
    private let backend: any StoreBackend

    private struct RuleKey: Hashable {
        var formID: Int64
        var field: String?
        var type: String?
        var rule: String
        var severity: Severity
        var message: String

        /// Whether this key is the one these parts make, compared in place (building the other
        /// key first would retain each of its strings). The cheap comparisons come first.
        func matches(formID: Int64, field: String?, type: String?, rule: String, severity: Severity,
                     message: String) -> Bool {
            self.formID == formID && self.severity == severity && self.rule == rule && self.message == message
                && self.field == field && self.type == type
        }
    }

    init(store: Store, runID: Int64) throws {
        self.runID = runID
        rows = try store.backend.makeRunResultRowWriter(runID: runID)
        backend = store.backend
        // A writer made once results were carried forward (another worker's, or another
        // process's) points at the same rules as the one that carried them.
        try rememberRules(formID: nil)
    }

    /// Takes the rules the run's results may already point at (its own, and those of a run it
    /// shares results from), so that a failure with the same content reuses one of them.
    private func rememberRules(formID: Int64?) throws {
        // A remembered key may now name another row: look it up afresh.
        recent = Self.noRecentRules
        for rule in try backend.rules(ofRun: runID, form: nil) where formID == nil || rule.formID == formID {
            ruleIDs[RuleKey(formID: rule.formID, field: rule.field, type: rule.type, rule: rule.rule,
                            severity: rule.severity, message: rule.message)] = rule.id
        }
    }

    /// Keeps the rows for the digest in memory (24 bytes a row) instead of hashing them as they
    /// come, so that rows added out of entry order (a run's final `unique` batch) need not be
    /// read back from the store at the end: ``writtenResults()`` sorts and hashes them then.
    /// Call it before the first ``add(entryID:entryVersion:ruleID:)``; with carried rows it
    /// changes nothing (they are read back).
    package func keepRowsForDigest() {
        guard !carried else { return }
        precondition(highestEntry < 0, "keepRowsForDigest() comes before the first row")
        keptRows = []
    }

    /// Promises that no result row added from now on is stored already: the entries of the
    /// batches to come were judged by no earlier batch of this run nor carried forward (a
    /// shared run's chunk, whose claim keeps any other process from committing it too). A row
    /// repeated within one entry's rules is still kept once. The backend may then write rows
    /// without looking for stored repeats (PostgreSQL: binary `COPY`, no `ON CONFLICT`, a
    /// third of the server's time); a broken promise fails the batch's commit (a duplicate
    /// key), it never stores a row twice.
    package func promiseNewRows() {
        rows.promiseNewRows()
    }

    /// The id of this failed rule in the run, inserted on first use.
    package func ruleID(formID: Int64, field: String?, type: String?, rule: String,
                       severity: Severity, message: String) throws -> Int64 {
        // Most failures repeat a few rules: a slot picked by lengths (O(1) for native strings)
        // and one comparison, usually of the same string objects, instead of hashing every
        // string of the key (a sixth of the writer's time at 160,000 failures). The slot's
        // rule is compared where it lies: copying it out retained each of its strings.
        let slot = (Int(truncatingIfNeeded: formID) &* 31 &+ rule.utf8.count &* 7 &+ message.utf8.count
                    &+ (field?.utf8.count ?? 0) &* 131 &+ (type?.utf8.count ?? 0) &* 17) & (Self.recentSlots - 1)
        let hit = recent[slot]
        if hit.id >= 0 && hit.key.matches(formID: formID, field: field, type: type, rule: rule, severity: severity,
                                          message: message) {
            return hit.id
        }
        let key = RuleKey(formID: formID, field: field, type: type, rule: rule, severity: severity, message: message)
        let id: Int64
        if let known = ruleIDs[key] {
            id = known
        } else {
            id = try rows.insertRule(RunRule(id: 0, formID: formID, form: "", field: field, type: type, rule: rule,
                                             severity: severity, message: message))
            ruleIDs[key] = id
        }
        recent[slot] = RecentRule(key: key, id: id)
        return id
    }

    private static let recentSlots = 64
    /// A rule looked up lately (`id` -1: none yet). A class, so that reading a slot retains
    /// one object rather than each of its strings.
    private final class RecentRule {
        let key: RuleKey
        let id: Int64
        init(key: RuleKey, id: Int64) { (self.key, self.id) = (key, id) }
    }
    /// Rules looked up lately, by ``ruleID(formID:field:type:rule:severity:message:)``'s slot.
    @exclusivity(unchecked) private var recent = RunResultWriter.noRecentRules
    private static var noRecentRules: [RecentRule] {
        let none = RecentRule(key: RuleKey(formID: -1, field: nil, type: nil, rule: "", severity: .error, message: ""),
                              id: -1)
        return [RecentRule](repeating: none, count: recentSlots)
    }

    /// Records one failed rule of one entry (the same rule twice for an entry is kept once).
    package func add(entryID: Int64, entryVersion: Int, ruleID: Int64) throws {
        if entryID != entryOfRules {
            feedEntryRules()
            entryOfRules = entryID
            if entryID < highestEntry { addedOutOfOrder = true }
            highestEntry = max(highestEntry, entryID)
        }
        entryRules.append((ruleID, Int64(entryVersion)))
        try rows.addResult(entryID: entryID, ruleID: ruleID, entryVersion: Int64(entryVersion))
    }

    /// Writes the results held back, moves the form's progress marker to `judgedThrough`
    /// (never back), and adds the batch's counts to the form's and the run's.
    package func progress(formID: Int64, judgedThrough: Int64, counts: RunCounts) throws {
        try rows.progress(formID: formID, judgedThrough: judgedThrough, counts: counts)
    }

    /// Carries form `formID`'s results forward from the complete run `base`: the rows of
    /// every entry of the form up to `throughID` that no import changed after `sinceImport`,
    /// shared (or, for rows the base holds itself, copied) inside the storage (``StoreBackend/carryForward(runID:formID:fromRun:throughID:sinceImport:)``).
    /// Returns the carried entries' counts, to add with the batch's ``progress(formID:judgedThrough:counts:)``
    /// in the same transaction. Rules failed later by judged entries reuse the copied or shared rules.
    package func carryForward(formID: Int64, fromRun base: Int64, throughID: Int64,
                             sinceImport: Int64) throws -> RunCounts {
        let counts = try backend.carryForward(runID: runID, formID: formID, fromRun: base, throughID: throughID,
                                              sinceImport: sinceImport)
        // The shared run's rules too: a judged entry failing the same rule points at it, so
        // that the run's results name each distinct rule once.
        try rememberRules(formID: formID)
        // The copied rows never passed through this writer: the digest is read back at the end.
        carried = true
        keptRows = nil
        return counts
    }

    /// What this writer wrote, for the run's end record (``Store/finishRun(id:status:error:actor:written:)``).
    /// Call it once, after the last batch committed; it describes the run's results only when
    /// every batch did. Entries may come out of id order (a run's `unique` results come in a
    /// final batch after the scan): the digest is then of the rows in `run_results` order,
    /// sorted from the rows kept (``keepRowsForDigest()``) or else read back from the store;
    /// after ``carryForward(formID:fromRun:throughID:sinceImport:)`` always read back.
    package func writtenResults() throws -> WrittenResults {
        feedEntryRules()
        if !carried, var rows = keptRows {
            keptRows = nil
            if addedOutOfOrder { rows.sort { ($0.entry, $0.rule) < ($1.entry, $1.rule) } }
            var previous: (entry: Int64, rule: Int64) = (-1, -1)
            // An entry's rule added in two batches is stored once, so hashed once.
            for row in rows where (row.entry, row.rule) != previous {
                digest.add(entryID: row.entry, ruleID: row.rule, entryVersion: row.version)
                previous = (row.entry, row.rule)
            }
        } else if addedOutOfOrder || carried {
            let results = DataDigests.ResultsAccumulator()
            try backend.forEachOwnResultRow(ofRun: runID) { entryID, entryVersion, ruleID in
                results.add(entryID: entryID, ruleID: ruleID, entryVersion: Int64(entryVersion))
            }
            let (hash, count) = results.finish()
            return WrittenResults(runID: runID, hash: hash, count: count)
        }
        let (hash, count) = digest.finish()
        return WrittenResults(runID: runID, hash: hash, count: count)
    }

    private func feedEntryRules() {
        guard !entryRules.isEmpty else { return }
        entryRules.sort { $0.rule < $1.rule }
        var previous: Int64 = -1
        // The same rule twice for an entry is inserted once, so fed once.
        for (rule, version) in entryRules where rule != previous {
            if keptRows != nil {
                keptRows!.append((entryOfRules, rule, version))
            } else {
                digest.add(entryID: entryOfRules, ruleID: rule, entryVersion: version)
            }
            previous = rule
        }
        entryRules.removeAll(keepingCapacity: true)
    }
}

/// The digest of the results a ``RunResultWriter`` wrote, for the run's end record.
package struct WrittenResults: Sendable {
    let runID: Int64
    let hash: [UInt8]
    let count: Int
}
