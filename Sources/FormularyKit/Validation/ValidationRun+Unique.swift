import Foundation
import Synchronization
import FormularyRules
import FormularyStore

/// One entry's `unique` key as a worker saw it: a 64-bit hash of the canonical values of
/// one `unique` rule's fields (seeded with the form and the rule) and the entry's id. 16
/// bytes an entry and rule: on a million entries, 16 MB held until the scan ends.
struct UniqueKeyHash: Sendable {
    var hash: UInt64
    var entryID: Int64
}

/// One `unique` rule's exact key in one form: the entries that have it share it.
struct UniqueGroupKey: Hashable, Sendable {
    var form: Int
    var rule: Int
    var key: [UInt8]
}

/// An entry of a `unique` group: its id, the version judged, and its verdict without
/// `unique` (0 valid, 1 warned, 2 invalid), to correct the counts when it fails.
struct UniqueMember: Sendable {
    var id: Int64
    var version: Int
    var prior: UInt8
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
                          snapshots: [EntrySnapshot], judgedThrough: Int64) throws {
        var candidates = Self.sharedHashes(hashes)
        hashes = []   // its memory is not needed any more
        guard !candidates.isEmpty else { return }
        candidates.sort()
        var unrepeated: [Int64] = []
        unrepeated.reserveCapacity(candidates.count)
        for id in candidates where id != unrepeated.last { unrepeated.append(id) }

        // The candidates' exact keys, each entry read once: the workers are done, so their
        // snapshots (all the same entries) read a share each, side by side.
        let shares = (0..<snapshots.count).map { k in
            Array(unrepeated[(unrepeated.count * k / snapshots.count)..<(unrepeated.count * (k + 1) / snapshots.count)])
        }
        let found = try Self.exactKeys(shares: shares, judges: judges, snapshots: snapshots)
        var groups: [UniqueGroupKey: [UniqueMember]] = [:]
        for (key, member) in found { groups[key, default: []].append(member) }

        // Each involved entry's failures, then one batch in entry id order.
        var failures: [Int64: (form: Int, version: Int, prior: UInt8, violations: [FormViolation])] = [:]
        for (group, members) in groups where members.count > 1 {
            let core = judges[group.form].core
            let rule = core.uniqueRules[group.rule]
            let field = core.fields[rule.fields[0]].key
            // Only the first few ids are named: the ids shown come from the group's first
            // members, so that a large group costs linear time, not a list per member.
            let head = members.prefix(Self.uniqueIDsShown + 1).map(\.id)
            for member in members {
                let shown = head.lazy.filter { $0 != member.id }.prefix(Self.uniqueIDsShown)
                let message = core.uniqueMessage(group.rule, ids: Array(shown), count: members.count - 1)
                let violation = FormViolation(field: field, type: nil, rule: rule.options.name,
                                              severity: rule.options.severity, message: message)
                failures[member.id, default: (group.form, member.version, member.prior, [])].violations.append(violation)
            }
        }
        guard !failures.isEmpty else { return }
        var deltas = [FormularyStore.RunCounts](repeating: FormularyStore.RunCounts(), count: judges.count)
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
            for (j, judge) in judges.enumerated() where deltas[j] != FormularyStore.RunCounts() {
                try writer.progress(formID: judge.formID, judgedThrough: judgedThrough, counts: deltas[j])
            }
        }
    }

    /// Reads each share of the candidates through its own snapshot, on a thread of its own,
    /// and gives every (form, rule, exact key) with the entry that has it, in id order
    /// within each share, the shares in order.
    static func exactKeys(shares: [[Int64]], judges: [FormJudge],
                          snapshots: [EntrySnapshot]) throws -> [(UniqueGroupKey, UniqueMember)] {
        let judgeOfForm = Dictionary(judges.enumerated().map { ($1.formID, $0) }, uniquingKeysWith: { a, _ in a })
        let outcomes = Mutex([Result<[(UniqueGroupKey, UniqueMember)], any Error>](
            repeating: .success([]), count: shares.count))
        DispatchQueue.concurrentPerform(iterations: shares.count) { k in
            let result = Result { () throws -> [(UniqueGroupKey, UniqueMember)] in
                var out: [(UniqueGroupKey, UniqueMember)] = []
                var scratches = judges.map { $0.makeScratch(rememberValues: false) }
                var violations: [FormViolation] = []
                for id in shares[k] {
                    try snapshots[k].forEachEntry(afterID: id - 1, throughID: id) { row in
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
                            out.append((UniqueGroupKey(form: j, rule: u, key: key),
                                        UniqueMember(id: row.id, version: row.version, prior: prior)))
                        }
                    }
                }
                return out
            }
            outcomes.withLock { $0[k] = result }
        }
        return try outcomes.withLock { $0 }.flatMap { try $0.get() }
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
}
