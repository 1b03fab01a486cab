import Foundation
import Synchronization
import FormularyRules
import FormularyStore

/// What one process did for a shared run (see ``SharedChunkWork``).
public struct SharedWorkDone: Sendable, Hashable {
    /// Chunks whose results this process committed.
    public var chunks = 0
    /// Entries those chunks checked.
    public var entries = 0
    /// Chunks this process judged but could not commit: another process had taken them over
    /// after their lease expired (their results are that process's).
    public var lost = 0

    /// Nothing done yet.
    public init() {}

    static func += (lhs: inout SharedWorkDone, rhs: SharedWorkDone) {
        lhs.chunks += rhs.chunks
        lhs.entries += rhs.entries
        lhs.lost += rhs.lost
    }
}

/// One process's part in a shared run (PostgreSQL, `validate --join`): claims free chunks of
/// the run, judges them on its snapshots' threads, and commits each chunk's results with its
/// "done" mark in one transaction that only succeeds while its claim still holds the chunk.
///
/// The calling thread claims (up to ``aheadPerWorker`` chunks per worker beyond those being
/// judged, topped up before each commit, so that no worker waits for a claim while a chunk is
/// committed), commits in claim order, and renews the leases of the chunks it holds every
/// third of a lease, also while it waits for a slow chunk. It stops when no chunk is free; chunks other
/// processes hold are theirs until their lease expires. The starting process and each
/// joiner run the same code, on the same judges: the run's recorded form and type versions.
struct SharedChunkWork {
    let store: Store
    let runID: Int64
    /// The forms chunks judge (no form with `unique` rules: the starter judges those).
    let judges: [FormJudge]
    /// Per judge: entries with ids up to this one keep a base run's results.
    let carriedThrough: [Int64]
    let rememberValues: Bool
    let leaseSeconds: Double
    /// Stop after claiming this many chunks (tests: a process that helps with a few).
    var maxChunks: Int? = nil
    /// Called on the calling thread after each committed chunk, with entries checked so far.
    var progress: ((Int) -> Void)? = nil

    /// A chunk this process's claim no longer holds: its transaction is rolled back.
    struct ChunkLost: Error {}

    /// Claimed chunks waiting for a worker, per worker, besides the one it judges and the one
    /// being committed: before, with one waiting chunk for all workers, a worker that finished
    /// while the calling thread committed another chunk waited for that commit and the next
    /// claim.
    static let aheadPerWorker = 1

    /// Claims, judges and commits chunks until none is free (or ``maxChunks`` were claimed).
    /// The results go through `writer` when given (the starter reads its digest when it
    /// committed every chunk), else through a new one.
    func run(snapshots: [EntrySnapshot], writer given: RunResultWriter? = nil) throws -> SharedWorkDone {
        var done = SharedWorkDone()
        guard !judges.isEmpty else { return done }
        let writer = try given ?? store.runResultWriter(runID: runID)
        // A chunk's entries are judged by no other batch and carried by none (they start
        // after the carried ids), and only the claim's holder commits them.
        writer.promiseNewRows()
        let queue = ClaimedChunks(workers: snapshots.count)
        for snapshot in snapshots {
            let (judges, carriedThrough, rememberValues) = (judges, carriedThrough, rememberValues)
            let thread = Thread {
                defer { queue.workerEnded() }
                do {
                    let worker = ChunkJudge(snapshot: snapshot, judges: judges, rememberValues: rememberValues,
                                            carriedThrough: carriedThrough)
                    while let (index, chunk) = queue.next() {
                        #if FORMULARY_TEST_HOOKS
                        let pause = SharedRunTestHooks.pause.withLock { $0 }
                        if pause > 0 { Thread.sleep(forTimeInterval: pause) }
                        #endif
                        queue.deliver(index, try worker.judge([chunk]))
                    }
                } catch {
                    queue.fail(error)
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        defer { queue.stopAndWait() }

        var held: [(index: Int, chunk: RunChunk)] = []
        var claimed = 0
        var noneFree = false
        let renewEvery = max(0.02, leaseSeconds / 3)
        var renewAt = Date().addingTimeInterval(renewEvery)
        // Held: the chunks being judged, waiting to be judged, or judged and not yet committed.
        let most = snapshots.count * (1 + Self.aheadPerWorker) + 1
        func claimMore() throws {
            while !noneFree, held.count < most, claimed < (maxChunks ?? Int.max) {
                guard let chunk = try store.claimRunChunk(runID: runID) else {
                    noneFree = true
                    break
                }
                queue.push(claimed, Chunk(afterID: chunk.afterID, throughID: chunk.throughID, fraction: 0))
                held.append((claimed, chunk))
                claimed += 1
            }
        }
        while true {
            try claimMore()
            guard let head = held.first else { break }
            if let outcome = try queue.take(head.index, until: renewAt) {
                held.removeFirst()
                // The workers' next chunks first: a worker that finished meanwhile waits for them.
                try claimMore()
                if try commit(head.chunk, outcome, writer: writer) {
                    done.chunks += 1
                    done.entries += outcome.counts.reduce(0) { $0 + $1.entriesChecked }
                    progress?(done.entries)
                } else {
                    done.lost += 1
                }
                // A chunk may have come free meanwhile (another process's lease expired).
                noneFree = false
            }
            if Date() >= renewAt {
                // A renewal that fails means the chunk was taken over: its commit will say so.
                for h in held { _ = try store.renewRunChunk(runID: runID, h.chunk) }
                renewAt = Date().addingTimeInterval(renewEvery)
            }
        }
        return done
    }

    /// Commits one chunk: its "done" mark first (guarded by the claim), then its results and
    /// counts, in one transaction. False when the claim no longer held the chunk.
    func commit(_ chunk: RunChunk, _ outcome: ChunkOutcome, writer: RunResultWriter) throws -> Bool {
        var total = FormularyStore.RunCounts()
        for counts in outcome.counts { total += counts }
        do {
            try store.transaction {
                guard try store.commitRunChunk(runID: runID, chunk, counts: total) else { throw ChunkLost() }
                for entry in outcome.entries {
                    let formID = judges[entry.form].formID
                    for v in outcome.violations[entry.range] {
                        let rule = try writer.ruleID(formID: formID, field: v.field, type: v.type, rule: v.rule,
                                                     severity: v.severity, message: v.message)
                        try writer.add(entryID: entry.id, entryVersion: entry.version, ruleID: rule)
                    }
                }
                // The progress marker stays: chunks commit in any order, so it moves to the
                // run's end only when the run is finished (``ValidationRun/finishShared``).
                for (j, judge) in judges.enumerated() where outcome.counts[j] != FormularyStore.RunCounts() {
                    try writer.progress(formID: judge.formID, judgedThrough: 0, counts: outcome.counts[j])
                }
            }
        } catch is ChunkLost {
            return false
        }
        return true
    }
}

#if FORMULARY_TEST_HOOKS
/// Test hooks of shared runs, for front ends whose process-level tests stop a process
/// while it holds a chunk (docs/scale-out.md, "Running N validators"). Test builds only
/// (FORMULARY_TEST_HOOKS, see Package.swift).
package enum SharedRunTestHooks {
    static let pause = Mutex(0.0)

    /// Makes each worker thread wait `seconds` after taking a chunk and before judging it
    /// (its process keeps renewing the claim meanwhile).
    package static func pauseBeforeJudging(seconds: Double) {
        pause.withLock { $0 = max(0, seconds) }
    }
}
#endif

/// The chunks a process claimed, between its calling thread and its worker threads.
final class ClaimedChunks: ChunkOutcomes, @unchecked Sendable {
    private var waiting: [(Int, Chunk)] = []

    /// Hands a claimed chunk to the workers.
    func push(_ index: Int, _ chunk: Chunk) {
        condition.lock()
        waiting.append((index, chunk))
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk to judge; waits for one; nil once stopped.
    func next() -> (Int, Chunk)? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !stopped { condition.wait() }
        guard !stopped else { return nil }
        return waiting.removeFirst()
    }
}
