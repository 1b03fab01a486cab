import Foundation
import FormularyRules
import FormularyStore

/// What a worker found in one chunk: its counts and the failing entries with their failed
/// rules (violations of entry `i` are `violations[entries[i].range]`).
struct ChunkOutcome: Sendable {
    /// Counts per form (index in the run's judges).
    var counts: [FormularyStore.RunCounts]
    var entries: [(form: Int, id: Int64, version: Int, range: Range<Int>)] = []
    var violations: [FormViolation] = []
    /// The `unique` key hash of each entry with a key (forms with `unique` rules only).
    var uniqueHashes: [UniqueKeyHash] = []
}

/// The chunks of a one-process run: workers take the next by index, and stay at most
/// ``window`` chunks ahead of the writer.
final class ChunkBoard: ChunkOutcomes, @unchecked Sendable {
    private var next = 0
    private var written = 0
    let count: Int
    /// How many finished chunks may wait for the writer: bounds memory when writing is the
    /// slow side.
    let window: Int

    init(count: Int, workers: Int) {
        self.count = count
        self.window = workers * 2 + 2
        super.init(workers: workers)
    }

    /// The next chunk to judge, or nil when there is none left or the run stopped. Waits while
    /// too many finished chunks are waiting for the writer.
    func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && next < count && next - written >= window { condition.wait() }
        guard !stopped, next < count else { return nil }
        next += 1
        return next - 1
    }

    override func didTake(_ index: Int) {
        written = index + 1
        condition.broadcast()
    }
}

extension ValidationRun {
    func judgeAndRecord(runID: Int64, judges: [FormJudge], carries: [CarryPlan], chunks: [Chunk],
                        snapshots: [EntrySnapshot]) throws -> WrittenResults {
        let writer = try store.runResultWriter(runID: runID)
        let carriedThrough = judges.indices.map { j in carries.first { $0.judge == j }?.throughID ?? 0 }
        var checked = 0
        if !carries.isEmpty, let first = snapshots.first {
            // Before the workers start: the first snapshot is theirs afterwards.
            let worker = ChunkJudge(snapshot: first, judges: judges, rememberValues: options.rememberValues,
                                    carriedThrough: carriedThrough)
            checked = try recordCarries(carries, judges: judges, worker: worker, writer: writer)
            progress?(ValidationProgress(entriesChecked: checked, fraction: chunks.isEmpty ? 1 : 0))
        }

        let board = ChunkBoard(count: chunks.count, workers: snapshots.count)
        let rememberValues = options.rememberValues
        for snapshot in snapshots {
            let thread = Thread {
                defer { board.workerEnded() }
                do {
                    let worker = ChunkJudge(snapshot: snapshot, judges: judges, rememberValues: rememberValues,
                                            carriedThrough: carriedThrough)
                    while let index = board.claim() {
                        board.deliver(index, try worker.judge([chunks[index]]))
                    }
                } catch {
                    board.fail(error)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        defer { board.stopAndWait() }

        var uniqueHashes: [UniqueKeyHash] = []
        var uniqueFilter: UniqueHashFilter?
        // Room for every id of the run at once: pages are only touched as hashes come, and
        // the array never doubles (a copy would double the peak memory).
        let uniqueRules = judges.reduce(0) { $0 + $1.core.uniqueRules.count }
        if uniqueRules > 0, let first = chunks.first, let last = chunks.last {
            // With carried rows the digest is read back from the store anyway.
            if carries.isEmpty { writer.keepRowsForDigest() }
            uniqueHashes.reserveCapacity(Int(last.throughID - first.afterID) * uniqueRules)
            uniqueFilter = UniqueHashFilter(expected: Int(last.throughID - first.afterID) * uniqueRules)
        }
        for index in 0..<chunks.count {
            guard let outcome = try board.take(index) else {
                preconditionFailure("chunk \(index): no outcome, though no deadline was given")
            }
            let chunk = chunks[index]
            try store.transaction {
                try write(outcome, judges: judges, writer: writer)
                for (j, judge) in judges.enumerated() {
                    try writer.progress(formID: judge.formID, judgedThrough: chunk.throughID, counts: outcome.counts[j])
                }
            }
            uniqueHashes.append(contentsOf: outcome.uniqueHashes)
            uniqueFilter?.insert(contentsOf: outcome.uniqueHashes)
            checked += outcome.counts.reduce(0) { $0 + $1.entriesChecked }
            progress?(ValidationProgress(entriesChecked: checked, fraction: chunk.fraction))
        }
        if !uniqueHashes.isEmpty, let last = chunks.last {
            // The workers are done; the first snapshot reads the colliding entries again.
            board.stopAndWait()
            if let uniqueFilter { uniqueHashes = uniqueFilter.candidates(uniqueHashes) }
            try recordUniqueness(&uniqueHashes, judges: judges, writer: writer, snapshots: snapshots,
                                 judgedThrough: last.throughID)
        }
        return try writer.writtenResults()
    }

    /// Writes the failed rules of a chunk's failing entries (inside the batch's transaction).
    func write(_ outcome: ChunkOutcome, judges: [FormJudge], writer: RunResultWriter) throws {
        // Each violation read where it lies: binding a copy retained its four strings.
        try outcome.violations.withUnsafeBufferPointer { all in
            for entry in outcome.entries {
                let formID = judges[entry.form].formID
                for i in entry.range {
                    let rule = try writer.ruleID(formID: formID, field: all[i].field, type: all[i].type,
                                                 rule: all[i].rule, severity: all[i].severity, message: all[i].message)
                    try writer.add(entryID: entry.id, entryVersion: entry.version, ruleID: rule)
                }
            }
        }
    }
}

/// One worker's reading and judging: its snapshot (read as rowid range scans, all forms at
/// once) and its scratch memory.
final class ChunkJudge {
    let judges: [FormJudge]
    let judgeOfForm: [Int64: Int]
    let snapshot: EntrySnapshot
    // Moved into locals for each chunk: a class's stored `var`s would cost a dynamic
    // exclusivity check per entry. One scratch per form: each remembers its fields' values.
    private var scratches: [FormJudge.Scratch]
    /// Per form: whether it has `unique` rules, so that entries' keys are hashed.
    private let hashesKeys: [Bool]
    /// Per form: entries with ids up to this one keep a base run's results (0: none do).
    private let carriedThrough: [Int64]
    private let noneCarried: [Int64]

    init(snapshot: EntrySnapshot, judges: [FormJudge], rememberValues: Bool, carriedThrough: [Int64]? = nil) {
        self.judges = judges
        noneCarried = [Int64](repeating: 0, count: judges.count)
        self.carriedThrough = carriedThrough ?? noneCarried
        self.snapshot = snapshot
        scratches = judges.map { $0.makeScratch(rememberValues: rememberValues) }
        hashesKeys = judges.map { !$0.core.uniqueRules.isEmpty }
        judgeOfForm = Dictionary(judges.enumerated().map { ($1.formID, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// Judges the entries of `ranges`, in order, into one outcome. With `skipCarried`, an
    /// entry whose results a base run carries forward is left out (the scan); without, every
    /// entry in the ranges is judged (a carried form's changed entries).
    func judge(_ ranges: [Chunk], skipCarried: Bool = true) throws -> ChunkOutcome {
        var outcome = ChunkOutcome(counts: [FormularyStore.RunCounts](repeating: FormularyStore.RunCounts(), count: judges.count))
        var formID: Int64 = -1, layoutID: Int64 = -1
        var j = -1
        // Unretained: `judges` keeps them and their plans alive, and a retain per entry
        // showed in profiles.
        var plan: Unmanaged<FormJudge.LayoutPlan>? = nil
        let judgeRefs = judges.map { Unmanaged.passUnretained($0) }
        var scratches = self.scratches
        defer { self.scratches = scratches }
        let carriedThrough = skipCarried ? self.carriedThrough : noneCarried
        // Through buffers for the whole call: subscripting the arrays per entry checked
        // their uniqueness each time.
        var counts = outcome.counts
        try scratches.withUnsafeMutableBufferPointer { scratches in
            try counts.withUnsafeMutableBufferPointer { counts in
                for chunk in ranges {
                    try snapshot.forEachEntry(afterID: chunk.afterID, throughID: chunk.throughID) { row in
                        let form = row.formID
                        if form != formID {
                            formID = form
                            j = judgeOfForm[form] ?? -1
                            layoutID = -1
                        }
                        guard j >= 0 else { return }   // a form this run does not judge
                        let id = row.id
                        guard id > carriedThrough[j] else { return }   // its results are carried forward
                        let layout = row.layoutID
                        if layout != layoutID {
                            guard let found = judges[j].plan(layoutID: layout) else {
                                throw StoreError.corrupt("entry \(id) has layout \(layout), which is missing")
                            }
                            plan = Unmanaged.passUnretained(found)
                            layoutID = layout
                        }
                        // Judged straight into the outcome: a copy per violation (and a retain per
                        // string) less than judging into a list of its own.
                        let start = outcome.violations.count
                        do {
                            try row.withValues { bytes in
                                try judgeRefs[j]._withUnsafeGuaranteedRef { judge in
                                    try plan.unsafelyUnwrapped._withUnsafeGuaranteedRef {
                                        try judge.judge(bytes, plan: $0, scratch: &scratches[j], into: &outcome.violations)
                                        guard hashesKeys[j] else { return }
                                        judge.forEachUniqueHash(bytes, plan: $0, scratch: &scratches[j]) { hash in
                                            outcome.uniqueHashes.append(UniqueKeyHash(hash: hash, entryID: id))
                                        }
                                    }
                                }
                            }
                        } catch let error as EntryValuesError {
                            throw StoreError.corrupt("entry \(id): \(error)")
                        }
                        counts[j].entriesChecked += 1
                        let end = outcome.violations.count
                        guard end > start else { return }
                        var errors = 0
                        for i in start..<end where outcome.violations[i].severity == .error { errors += 1 }
                        counts[j].errors += errors
                        counts[j].warnings += end - start - errors
                        if errors > 0 { counts[j].entriesInvalid += 1 } else { counts[j].entriesWarned += 1 }
                        outcome.entries.append((j, id, row.version, start..<end))
                    }
                }
            }
        }
        outcome.counts = counts
        return outcome
    }
}
