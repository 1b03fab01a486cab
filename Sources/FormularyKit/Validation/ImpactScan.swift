import Foundation
import FormularyRules
import FormularyStore

/// A failed rule as `impact` compares results: the field (nil for a rule of the whole
/// entry) and the rule's name. Severity is left out: a rule that fails before and after
/// is unchanged, whatever its severity.
struct ImpactRuleKey: Hashable, Sendable {
    var field: String?
    var rule: String
}

/// Whether an entry (or a rule of it) now fails or now passes.
public enum ImpactChange: String, Sendable, Hashable {
    /// It passed in the latest result and fails with the proposed definitions.
    case newlyFailing = "newly_failing"
    /// It failed in the latest result and passes with the proposed definitions.
    case fixed
}

/// One form as `impact` judges it: the judge with the proposed definitions and, for
/// entries without a recorded result, the judge with the definitions as they are.
struct ImpactForm {
    var name: String
    var proposed: FormJudge
    /// Nil when the form cannot be judged without the proposed files (it is new, or broken
    /// without them): such entries are compared with nothing, so they count as unchanged.
    var current: FormJudge?
    /// Names of the form's `unique` rules: the scan does not judge them (they compare
    /// entries with each other), so their latest results are carried over.
    var uniqueRules: Set<String>
}

/// The latest recorded result of every entry `impact` judges, read before the scan: the
/// failed rules of failing entries (compact, in id order) and how far each form's runs
/// reach. Shared read-only by the workers.
final class ImpactBaseline: @unchecked Sendable {
    /// Ids of the entries whose latest result has a failed rule, ascending.
    private(set) var ids: [Int64] = []
    /// Entry `ids[i]`'s failed rules are `failures[starts[i]..<starts[i + 1]]`.
    private(set) var starts: [Int32] = [0]
    private(set) var failures: [(key: Int32, error: Bool)] = []
    private(set) var keys: [ImpactRuleKey] = []
    /// Per form (index): entries with an id up to this one have a recorded result.
    let coveredThrough: [Int64]

    /// Reads, for each form, its runs newest first: each run gives the latest result of the
    /// entries it judged that no newer run judged (`judged_through` says which).
    init(store: Store, forms: [String]) throws {
        var found: [(id: Int64, key: Int32, error: Bool)] = []
        var keyIndex: [ImpactRuleKey: Int32] = [:]
        var keys: [ImpactRuleKey] = []
        var covered: [Int64] = []
        for form in forms {
            var bound: Int64 = 0
            var segments: [(run: Int64, after: Int64, through: Int64)] = []
            for run in try store.runs(form: form) {
                guard let record = run.forms.first(where: { $0.form == form }), record.judgedThrough > bound else { continue }
                segments.append((run.id, bound, record.judgedThrough))
                bound = record.judgedThrough
            }
            covered.append(bound)
            for segment in segments {
                try store.forEachResult(ofRun: segment.run, form: form) { result in
                    guard result.entryID > segment.after, result.entryID <= segment.through else { return }
                    let key = ImpactRuleKey(field: result.rule.field, rule: result.rule.rule)
                    let index: Int32
                    if let known = keyIndex[key] {
                        index = known
                    } else {
                        index = Int32(keys.count)
                        keys.append(key)
                        keyIndex[key] = index
                    }
                    found.append((result.entryID, index, result.rule.severity == .error))
                }
            }
        }
        coveredThrough = covered
        self.keys = keys
        found.sort { $0.id < $1.id }
        for item in found {
            if ids.last != item.id {
                if !ids.isEmpty { starts.append(Int32(failures.count)) }
                ids.append(item.id)
            }
            failures.append((item.key, item.error))
        }
        if !ids.isEmpty { starts.append(Int32(failures.count)) }
    }

    /// The index of the first failing entry with an id above `id`.
    func firstIndex(after id: Int64) -> Int {
        var low = 0, high = ids.count
        while low < high {
            let mid = (low + high) / 2
            if ids[mid] <= id { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// What one worker found in one chunk of ids.
struct ImpactOutcome {
    var checked = 0
    var newlyFailing = 0
    var fixed = 0
    var withoutResult = 0
    var tallies: [ImpactRuleKey: (newlyFailing: Int, fixed: Int)] = [:]
    /// The first few examples of each rule and change, in id order.
    var examples: [(entry: Int64, key: ImpactRuleKey, change: ImpactChange)] = []
    var exampleCounts: [ImpactExampleKey: Int] = [:]
}

/// A rule and a change, for counting examples.
struct ImpactExampleKey: Hashable {
    var key: ImpactRuleKey
    var change: ImpactChange
}

/// One worker's judging for `impact`: reads its chunks from its snapshot, judges each
/// entry with the proposed definitions and compares the failed rules with the entry's
/// latest result. Entries that pass both ways (most of them) cost a judgment and a
/// compare of two integers.
final class ImpactChunkJudge {
    let forms: [ImpactForm]
    let formOfID: [Int64: Int]
    let baseline: ImpactBaseline
    let snapshot: EntrySnapshot
    let examplesPerRule: Int
    private var proposedScratches: [FormJudge.Scratch]
    private var currentScratches: [FormJudge.Scratch?]

    init(snapshot: EntrySnapshot, forms: [ImpactForm], baseline: ImpactBaseline, examplesPerRule: Int) {
        self.forms = forms
        self.snapshot = snapshot
        self.baseline = baseline
        self.examplesPerRule = examplesPerRule
        formOfID = Dictionary(forms.enumerated().map { ($1.proposed.formID, $0) }, uniquingKeysWith: { a, _ in a })
        proposedScratches = forms.map { $0.proposed.makeScratch() }
        currentScratches = forms.map { $0.current?.makeScratch() }
    }

    func judge(_ chunk: Chunk) throws -> ImpactOutcome {
        var outcome = ImpactOutcome()
        var proposedScratches = self.proposedScratches
        var currentScratches = self.currentScratches
        defer { (self.proposedScratches, self.currentScratches) = (proposedScratches, currentScratches) }
        var violations: [FormViolation] = []
        var currentViolations: [FormViolation] = []
        var cursor = baseline.firstIndex(after: chunk.afterID)
        let ids = baseline.ids
        let covered = baseline.coveredThrough
        // As in ``ChunkJudge``: the judge and plan of the entry's form and layout, looked up
        // only when they change and used unretained (a retain per entry shows in profiles).
        var formID: Int64 = -1, layoutID: Int64 = -1, j = -1
        var plan: Unmanaged<FormJudge.LayoutPlan>? = nil
        let judgeRefs = forms.map { Unmanaged.passUnretained($0.proposed) }
        try snapshot.forEachEntry(afterID: chunk.afterID, throughID: chunk.throughID) { row in
            if row.formID != formID {
                formID = row.formID
                j = formOfID[formID] ?? -1
                layoutID = -1
            }
            guard j >= 0 else { return }   // a form the proposal does not change
            let id = row.id
            if row.layoutID != layoutID {
                guard let found = forms[j].proposed.plan(layoutID: row.layoutID) else {
                    throw StoreError.corrupt("entry \(id) has layout \(row.layoutID), which is missing")
                }
                plan = Unmanaged.passUnretained(found)
                layoutID = row.layoutID
            }
            while cursor < ids.count && ids[cursor] < id { cursor += 1 }
            let hasFailures = cursor < ids.count && ids[cursor] == id
            if !violations.isEmpty { violations.removeAll(keepingCapacity: true) }
            do {
                try judgeRefs[j]._withUnsafeGuaranteedRef { judge in
                    try plan.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                        try judge.judge(row.values, plan: $0, scratch: &proposedScratches[j], into: &violations)
                    }
                }
            } catch let error as EntryValuesError {
                throw StoreError.corrupt("entry \(id): \(error)")
            }
            outcome.checked += 1
            let isCovered = id <= covered[j]
            // The common case: no failure before, none now.
            if isCovered && !hasFailures && violations.isEmpty { return }
            var current: [FormViolation]? = nil
            if !isCovered {
                // No recorded result: the definitions as they are give the entry's baseline.
                outcome.withoutResult += 1
                if let judge = forms[j].current, let currentPlan = judge.plan(layoutID: row.layoutID),
                   currentScratches[j] != nil {
                    if !currentViolations.isEmpty { currentViolations.removeAll(keepingCapacity: true) }
                    do {
                        try judge.judge(row.values, plan: currentPlan, scratch: &currentScratches[j]!, into: &currentViolations)
                    } catch let error as EntryValuesError {
                        throw StoreError.corrupt("entry \(id): \(error)")
                    }
                    if violations.isEmpty && currentViolations.isEmpty { return }
                    current = currentViolations
                } else {
                    current = violations   // nothing to compare with: unchanged
                }
            }
            compare(id, form: j, violations: violations, baselineIndex: hasFailures ? cursor : nil,
                    current: current, into: &outcome)
        }
        return outcome
    }

    /// Compares an entry's failed rules now (`violations`) with its latest result: the
    /// baseline's entry `baselineIndex`, or, for an entry without a recorded result, its
    /// judgment with the current definitions (`current`); none when both are nil.
    private func compare(_ id: Int64, form j: Int, violations: [FormViolation], baselineIndex: Int?,
                         current: [FormViolation]?, into outcome: inout ImpactOutcome) {
        var after: [(key: ImpactRuleKey, error: Bool)] = []
        var before: [(key: ImpactRuleKey, error: Bool)] = []
        for v in violations { Self.add(ImpactRuleKey(field: v.field, rule: v.rule), error: v.severity == .error, to: &after) }
        if let index = baselineIndex {
            let range = Int(baseline.starts[index])..<Int(baseline.starts[index + 1])
            for f in baseline.failures[range] {
                let key = baseline.keys[Int(f.key)]
                Self.add(key, error: f.error, to: &before)
                // `unique` is judged across entries, not here: its latest result stands.
                if forms[j].uniqueRules.contains(key.rule) {
                    Self.add(key, error: f.error, to: &after)
                }
            }
        } else if let current {
            for v in current { Self.add(ImpactRuleKey(field: v.field, rule: v.rule), error: v.severity == .error, to: &before) }
        }
        let wasInvalid = before.contains { $0.error }, isInvalid = after.contains { $0.error }
        if !wasInvalid && isInvalid { outcome.newlyFailing += 1 }
        if wasInvalid && !isInvalid { outcome.fixed += 1 }
        for item in after where !before.contains(where: { $0.key == item.key }) {
            record(item.key, .newlyFailing, entry: id, into: &outcome)
        }
        for item in before where !after.contains(where: { $0.key == item.key }) {
            record(item.key, .fixed, entry: id, into: &outcome)
        }
    }

    /// Adds a failed rule once (an entry may fail a rule on several checks); an error wins
    /// over a warning.
    private static func add(_ key: ImpactRuleKey, error: Bool, to list: inout [(key: ImpactRuleKey, error: Bool)]) {
        if let i = list.firstIndex(where: { $0.key == key }) {
            if error { list[i].error = true }
        } else {
            list.append((key, error))
        }
    }

    private func record(_ key: ImpactRuleKey, _ change: ImpactChange, entry: Int64, into outcome: inout ImpactOutcome) {
        switch change {
        case .newlyFailing: outcome.tallies[key, default: (0, 0)].newlyFailing += 1
        case .fixed: outcome.tallies[key, default: (0, 0)].fixed += 1
        }
        let exampleKey = ImpactExampleKey(key: key, change: change)
        let shown = outcome.exampleCounts[exampleKey, default: 0]
        guard shown < examplesPerRule else { return }
        outcome.exampleCounts[exampleKey] = shown + 1
        outcome.examples.append((entry, key, change))
    }
}

/// Runs ``ImpactChunkJudge``s on worker threads, one per snapshot, over the chunks, and
/// hands back the outcomes in chunk order (so that examples are the lowest ids).
enum ImpactWorkers {
    static func run(chunks: [Chunk], snapshots: [EntrySnapshot], forms: [ImpactForm], baseline: ImpactBaseline,
                    examplesPerRule: Int) throws -> [ImpactOutcome] {
        final class Shared: @unchecked Sendable {
            let condition = NSCondition()
            var next = 0
            var running = 0
            var outcomes: [ImpactOutcome?]
            var failure: (any Error)?
            init(count: Int) { outcomes = Array(repeating: nil, count: count) }
        }
        let shared = Shared(count: chunks.count)
        shared.running = snapshots.count
        for snapshot in snapshots {
            let thread = Thread {
                let worker = ImpactChunkJudge(snapshot: snapshot, forms: forms, baseline: baseline,
                                              examplesPerRule: examplesPerRule)
                while true {
                    shared.condition.lock()
                    let index = shared.failure == nil && shared.next < chunks.count ? shared.next : nil
                    shared.next += 1
                    shared.condition.unlock()
                    guard let index else { break }
                    do {
                        let outcome = try worker.judge(chunks[index])
                        shared.condition.lock()
                        shared.outcomes[index] = outcome
                        shared.condition.unlock()
                    } catch {
                        shared.condition.lock()
                        if shared.failure == nil { shared.failure = error }
                        shared.condition.unlock()
                        break
                    }
                }
                shared.condition.lock()
                shared.running -= 1
                shared.condition.broadcast()
                shared.condition.unlock()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        shared.condition.lock()
        while shared.running > 0 { shared.condition.wait() }
        shared.condition.unlock()
        if let failure = shared.failure { throw failure }
        return shared.outcomes.map { $0 ?? ImpactOutcome() }
    }
}
