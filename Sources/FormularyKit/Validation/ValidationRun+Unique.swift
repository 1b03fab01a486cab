import FormularyRules
import FormularyStore

/// One entry's `unique` key as a worker saw it: a 64-bit hash of the canonical values of
/// one `unique` rule's fields (seeded with the form and the rule) and the entry's id. 16
/// bytes an entry and rule: on a million entries, 16 MB held until the scan ends.
struct UniqueKeyHash: Sendable {
    var hash: UInt64
    var entryID: Int64
}

extension ValidationRun {
    /// Most ids a `unique` message names before "and N more".
    static let uniqueIDsShown = 5

    /// Finds the entries that share a `unique` key and records them in one final batch.
    ///
    /// Workers hashed each entry's keys as they judged it; here the hashes are sorted, and
    /// every entry whose hash another entry also has is read again from the run's snapshot
    /// (the versions judged), judged again (for its verdict without `unique`) and its exact
    /// keys computed: only equal exact keys fail, so a hash collision never fails an entry.
    /// Each entry of a group fails the rule with a message naming the others (ids only: no
    /// value, so no secure value, is ever in it), and the counts of its form and of the run
    /// are corrected for entries whose verdict changes.
    func recordUniqueness(_ hashes: inout [UniqueKeyHash], judges: [FormJudge], writer: RunResultWriter,
                          snapshot: EntrySnapshot, judgedThrough: Int64) throws {
        var candidates = Self.sharedHashes(hashes)
        hashes = []   // its memory is not needed any more
        guard !candidates.isEmpty else { return }
        candidates.sort()

        // The candidates' exact keys, each entry read once, in id order.
        struct Member { var id: Int64; var version: Int; var prior: UInt8 }
        struct GroupKey: Hashable { var form: Int; var rule: Int; var key: [UInt8] }
        var groups: [GroupKey: [Member]] = [:]
        let judgeOfForm = Dictionary(judges.enumerated().map { ($1.formID, $0) }, uniquingKeysWith: { a, _ in a })
        var scratches = judges.map { $0.makeScratch(rememberValues: false) }
        var violations: [FormViolation] = []
        var previous: Int64 = -1
        for id in candidates where id != previous {
            previous = id
            try snapshot.forEachEntry(afterID: id - 1, throughID: id) { row in
                guard let j = judgeOfForm[row.formID] else { return }
                guard let plan = judges[j].plan(layoutID: row.layoutID) else {
                    throw StoreError.corrupt("entry \(id) has layout \(row.layoutID), which is missing")
                }
                violations.removeAll(keepingCapacity: true)
                do {
                    try judges[j].judge(row.values, plan: plan, scratch: &scratches[j], into: &violations)
                } catch {
                    throw StoreError.corrupt("entry \(id): \(error)")
                }
                var prior: UInt8 = 0
                for v in violations { prior = v.severity == .error ? 2 : max(prior, 1) }
                for u in judges[j].core.uniqueRules.indices {
                    guard let key = judges[j].core.uniqueKey(u, values: row.values, layout: plan,
                                                              scratch: &scratches[j]) else { continue }
                    groups[GroupKey(form: j, rule: u, key: key), default: []]
                        .append(Member(id: row.id, version: row.version, prior: prior))
                }
            }
        }

        // Each involved entry's failures, then one batch in entry id order.
        var failures: [Int64: (form: Int, version: Int, prior: UInt8, violations: [FormViolation])] = [:]
        for (group, members) in groups where members.count > 1 {
            let rule = judges[group.form].core.uniqueRules[group.rule]
            let keys = rule.fields.map { judges[group.form].core.fields[$0].key }
            let ids = members.map(\.id)
            for member in members {
                let message = Self.uniqueMessage(fields: keys, others: ids.filter { $0 != member.id },
                                                 custom: rule.options.message)
                let violation = FormViolation(field: keys[0], type: nil, rule: rule.options.name,
                                              severity: rule.options.severity, message: message)
                failures[member.id, default: (group.form, member.version, member.prior, [])].violations.append(violation)
            }
        }
        guard !failures.isEmpty else { return }
        var deltas = [RunCounts](repeating: RunCounts(), count: judges.count)
        try store.transaction {
            for id in failures.keys.sorted() {
                let failure = failures[id]!
                let formID = judges[failure.form].formID
                var errors = 0
                // A fixed order (rule, message), whatever order the groups came in.
                let ordered = failure.violations.sorted { ($0.rule, $0.message) < ($1.rule, $1.message) }
                for v in ordered {
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

    /// The ids of the entries whose hash another entry also has (unsorted; an id may repeat).
    ///
    /// One counting pass and one scatter by the hash's top 16 bits, then a sort of each small
    /// bucket: on a million hashes several times faster than sorting them all, and this part
    /// of the run has the machine to itself.
    static func sharedHashes(_ hashes: [UniqueKeyHash]) -> [Int64] {
        let buckets = 1 << 16
        var starts = [Int](repeating: 0, count: buckets + 1)
        for h in hashes { starts[Int(h.hash >> 48) + 1] += 1 }
        for b in 0..<buckets { starts[b + 1] += starts[b] }
        var next = starts
        var scattered = [UniqueKeyHash](repeating: UniqueKeyHash(hash: 0, entryID: 0), count: hashes.count)
        var candidates: [Int64] = []
        scattered.withUnsafeMutableBufferPointer { out in
            for h in hashes {
                let b = Int(h.hash >> 48)
                out[next[b]] = h
                next[b] += 1
            }
            for b in 0..<buckets where starts[b + 1] - starts[b] > 1 {
                var bucket = UnsafeMutableBufferPointer(rebasing: out[starts[b]..<starts[b + 1]])
                if bucket.count <= 32 {
                    // Buckets hold about 15 hashes a million: insertion sort, no closure calls.
                    for i in 1..<bucket.count {
                        let h = bucket[i]
                        var k = i
                        while k > 0, bucket[k - 1].hash > h.hash { bucket[k] = bucket[k - 1]; k -= 1 }
                        bucket[k] = h
                    }
                } else {
                    bucket.sort { $0.hash < $1.hash }
                }
                var i = 0
                while i < bucket.count {
                    var j = i + 1
                    while j < bucket.count, bucket[j].hash == bucket[i].hash { j += 1 }
                    if j - i > 1 { for k in i..<j { candidates.append(bucket[k].entryID) } }
                    i = j
                }
            }
        }
        return candidates
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
