import FormularyRules
import FormularyStore

/// One entry's `unique` key as a worker saw it: a 64-bit hash of the canonical values of
/// one `unique` rule's fields, with what the run needs to record a failure without reading
/// the entry again unless its hash collides. 32 bytes an entry and rule.
struct UniqueKeyHash: Sendable {
    var hash: UInt64
    var entryID: Int64
    var version: Int32
    /// The form's index in the run's judges.
    var form: Int32
    /// The rule's index in the form's ``EntryJudge/uniqueRules``.
    var rule: Int16
    /// How the entry was judged without `unique`: 0 valid, 1 warnings only, 2 invalid.
    var prior: UInt8
}

extension ValidationRun {
    /// Most ids a `unique` message names before "and N more".
    static let uniqueIDsShown = 5

    /// Finds the entries that share a `unique` key and records them in one final batch.
    ///
    /// Workers hashed each entry's key as they judged it; here the hashes are sorted, and
    /// each group of equal hashes is confirmed on the exact canonical values, read again from
    /// the run's snapshot (so a hash collision never fails an entry, and the entry versions
    /// are the ones judged). Each entry of a confirmed group fails the rule with a message
    /// naming the others (ids only: no value, so no secure value, is ever in it), and the
    /// counts of its form and of the run are corrected for entries whose verdict changes.
    func recordUniqueness(_ hashes: [UniqueKeyHash], judges: [FormJudge], writer: RunResultWriter,
                          snapshot: EntrySnapshot, judgedThrough: Int64) throws {
        var hashes = hashes
        hashes.sort { ($0.form, $0.rule, $0.hash, $0.entryID) < ($1.form, $1.rule, $1.hash, $1.entryID) }
        // Groups of equal hashes within a rule: the candidates.
        var groups: [Range<Int>] = []
        var start = 0
        while start < hashes.count {
            var end = start + 1
            while end < hashes.count, hashes[end].form == hashes[start].form, hashes[end].rule == hashes[start].rule,
                  hashes[end].hash == hashes[start].hash { end += 1 }
            if end - start > 1 { groups.append(start..<end) }
            start = end
        }
        guard !groups.isEmpty else { return }

        // The exact keys of the candidates, reading each entry once, in id order.
        var wanted: [Int64: [Int]] = [:]
        for group in groups { for i in group { wanted[hashes[i].entryID, default: []].append(i) } }
        var keys = [[UInt8]?](repeating: nil, count: hashes.count)
        var scratches = judges.map { $0.makeScratch(rememberValues: false) }
        for id in wanted.keys.sorted() {
            try snapshot.forEachEntry(afterID: id - 1, throughID: id) { row in
                for i in wanted[id]! {
                    let j = Int(hashes[i].form)
                    guard let plan = judges[j].plan(layoutID: row.layoutID) else {
                        throw StoreError.corrupt("entry \(id) has layout \(row.layoutID), which is missing")
                    }
                    scratches[j].fit(plan)
                    do {
                        try EntryValues.locate(row.values, into: &scratches[j].spans)
                    } catch {
                        throw StoreError.corrupt("entry \(id): \(error)")
                    }
                    keys[i] = judges[j].core.uniqueKey(Int(hashes[i].rule), values: row.values, layout: plan,
                                                      scratch: &scratches[j])
                }
            }
        }

        // Each involved entry's failures, then one batch in entry id order.
        var failures: [Int64: (form: Int, version: Int, prior: UInt8, violations: [FormViolation])] = [:]
        for group in groups {
            var byKey: [[UInt8]: [Int]] = [:]
            for i in group { if let key = keys[i] { byKey[key, default: []].append(i) } }
            for members in byKey.values where members.count > 1 {
                let first = hashes[members[0]]
                let j = Int(first.form)
                let rule = judges[j].core.uniqueRules[Int(first.rule)]
                let keys = rule.fields.map { judges[j].core.fields[$0].key }
                let ids = members.map { hashes[$0].entryID }
                for i in members {
                    let h = hashes[i]
                    let message = Self.uniqueMessage(fields: keys, others: ids.filter { $0 != h.entryID },
                                                     custom: rule.options.message)
                    let violation = FormViolation(field: keys[0], type: nil, rule: rule.options.name,
                                                  severity: rule.options.severity, message: message)
                    failures[h.entryID, default: (j, Int(h.version), h.prior, [])].violations.append(violation)
                }
            }
        }
        guard !failures.isEmpty else { return }
        var deltas = [RunCounts](repeating: RunCounts(), count: judges.count)
        try store.transaction {
            for id in failures.keys.sorted() {
                let failure = failures[id]!
                let formID = judges[failure.form].formID
                var errors = 0
                for v in failure.violations {
                    if v.severity == .error { errors += 1 }
                    let rule = try writer.ruleID(formID: formID, field: v.field, type: v.type, rule: v.rule,
                                                 severity: v.severity, message: v.message)
                    try writer.add(entryID: id, entryVersion: failure.version, ruleID: rule)
                }
                var delta = deltas[failure.form]
                delta.errors += errors
                delta.warnings += failure.violations.count - errors
                switch (failure.prior, errors > 0) {
                case (0, true): delta.entriesInvalid += 1
                case (0, false): delta.entriesWarned += 1
                case (1, true): delta.entriesWarned -= 1; delta.entriesInvalid += 1
                default: break
                }
                deltas[failure.form] = delta
            }
            for (j, judge) in judges.enumerated() where deltas[j] != RunCounts() {
                try writer.progress(formID: judge.formID, judgedThrough: judgedThrough, counts: deltas[j])
            }
        }
    }

    /// "the same email as entries 12, 40": the fields and the other entries' ids (the first
    /// few, then "and N more"); a rule's own message comes first, the ids after it.
    static func uniqueMessage(fields: [String], others: [Int64], custom: String?) -> String {
        let shown = others.prefix(uniqueIDsShown).map(String.init).joined(separator: ", ")
        let more = others.count > uniqueIDsShown ? " and \(others.count - uniqueIDsShown) more" : ""
        let entries = (others.count == 1 ? "entry " : "entries ") + shown + more
        if let custom { return "\(custom) (\(entries))" }
        let names = fields.count == 1 ? fields[0]
            : fields.dropLast().joined(separator: ", ") + " and " + fields.last!
        return "the same \(names) as \(entries)"
    }
}
