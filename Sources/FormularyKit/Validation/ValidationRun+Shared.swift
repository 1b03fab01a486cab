import Foundation
import FormularyRules
import FormularyStore

extension ValidationRun {
    /// A run on a store that shares runs (PostgreSQL), from the starting process's side
    /// (docs/scale-out.md, "Running N validators"):
    ///
    /// 1. carried forms' first batches (unchanged entries' results carried forward, changed
    ///    entries judged), here, before anything is shared;
    /// 2. the entries left to judge of the forms without `unique` rules, split by id into
    ///    chunks of ``ValidationOptions/chunkSize``, recorded with the snapshot the readers
    ///    share, then ``shared`` is called: from now on other processes may join;
    /// 3. forms with `unique` rules judged here alone, in one pass with the usual final
    ///    `unique` batch (a duplicate may lie in any chunk, so no chunk can judge them);
    /// 4. chunks claimed and judged here as in any joiner (``SharedChunkWork``), then the
    ///    wait for chunks others hold, taking over those whose lease expires;
    /// 5. the end (``finishShared``), once, by this process.
    ///
    /// Every process judges with the run's recorded versions and today, so a chunk's results
    /// do not depend on who judged it.
    func runShared(runID: Int64, prepared: [PreparedForm], judges: [FormJudge], carries: [CarryPlan],
                   bounds: (firstID: Int64, lastID: Int64), snapshots: [EntrySnapshot]) throws {
        var checked = 0
        let writer = try store.runResultWriter(runID: runID)
        if !carries.isEmpty, let first = snapshots.first {
            let carriedThrough = judges.indices.map { j in carries.first { $0.judge == j }?.throughID ?? 0 }
            let worker = ChunkJudge(snapshot: first, judges: judges, rememberValues: options.rememberValues,
                                    carriedThrough: carriedThrough)
            checked = try recordCarries(carries, judges: judges, worker: worker, writer: writer)
            progress?(ValidationProgress(entriesChecked: checked, fraction: 0))
        }

        let chunked = judges.indices.filter { judges[$0].core.uniqueRules.isEmpty }
        let unique = judges.indices.filter { !judges[$0].core.uniqueRules.isEmpty }
        let carriedThrough = chunked.map { j in carries.first { $0.judge == j }?.throughID ?? 0 }
        let chunks = chunked.isEmpty ? [] : Self.chunks(bounds, batchSize: options.chunkSize,
                                                         startingAfter: carriedThrough.min() ?? 0)
        guard let snapshotID = snapshots.first.flatMap(store.sharedSnapshotID(of:)) else {
            throw StoreError.corrupt("the readers of run \(runID) have no snapshot to share")
        }
        var masked: [Int64: Set<String>] = [:]
        for (j, form) in prepared.enumerated() where !form.maskedFields.isEmpty { masked[judges[j].formID] = form.maskedFields }
        // The counts before any chunk: at the end, what the chunks' commits recorded must be
        // exactly what was added to their forms since (a chunk written twice would show).
        let before = try store.run(id: runID)?.forms ?? []
        try store.shareRun(RunShare(runID: runID, snapshot: snapshotID, leaseSeconds: options.leaseSeconds, masked: masked),
                           chunks: chunks.map { ($0.afterID, $0.throughID) })
        shared?(runID)

        if !unique.isEmpty {
            let uniqueChunks = Self.chunks(bounds, batchSize: options.batchSize)
            let saved = progress
            progress = { p in saved?(ValidationProgress(entriesChecked: checked + p.entriesChecked, fraction: p.fraction / 2)) }
            defer { progress = saved }
            _ = try judgeAndRecord(runID: runID, judges: unique.map { judges[$0] }, carries: [], chunks: uniqueChunks,
                                   snapshots: snapshots)
            checked = try store.run(id: runID)?.counts.entriesChecked ?? checked
        }

        var work = SharedChunkWork(store: store, runID: runID, judges: chunked.map { judges[$0] },
                                   carriedThrough: carriedThrough, rememberValues: options.rememberValues,
                                   leaseSeconds: options.leaseSeconds)
        let base = checked
        let total = max(1, chunks.count)
        work.progress = { [progress] entries in
            progress?(ValidationProgress(entriesChecked: base + entries, fraction: 0.5))
        }
        // The chunks' own writer: when this process committed every chunk, it saw every
        // result row of the run, and its digest saves reading them all back at the end.
        let chunkWriter = try store.runResultWriter(runID: runID)
        var done = SharedWorkDone()
        while true {
            done += try work.run(snapshots: snapshots, writer: chunkWriter)
            let tally = try store.runChunkTally(runID: runID)
            progress?(ValidationProgress(entriesChecked: base + done.entries, fraction: Double(tally.done) / Double(total)))
            if tally.isFinished { break }
            if tally.pending == 0 && tally.expired == 0 {
                // Others hold the rest: wait for their commits, or for a lease to run out. A
                // short poll (one small query): the run's end waits on the last commit.
                let poll = min(0.05, max(0.01, options.leaseSeconds / 8))
                Thread.sleep(forTimeInterval: min(poll, max(0.01, tally.secondsToNextExpiry ?? poll)))
            }
        }
        let wroteAll = carries.isEmpty && unique.isEmpty && done.lost == 0 && done.chunks == chunks.count
        try finishShared(runID: runID, chunkedFormIDs: chunked.map { judges[$0].formID }, before: before,
                         lastChunk: chunks.last, written: wroteAll ? try chunkWriter.writtenResults() : nil)
    }

    /// Ends a shared run once every chunk is done: checks that the chunks' commits account
    /// for exactly the counts their forms gained, moves those forms' progress markers to the
    /// last chunk's end, and ends the run as complete — all in one transaction, and only if
    /// the run is still `running` (``Store/finishRun(id:status:error:actor:written:)``
    /// refuses a run another process ended). `written`, when this process wrote every result
    /// row of the run (no joiner committed a chunk, nothing was carried forward, no `unique`
    /// form), is their digest; without it the rows are read back.
    func finishShared(runID: Int64, chunkedFormIDs: [Int64], before: [FormularyStore.RunFormRecord], lastChunk: Chunk?,
                      written: WrittenResults? = nil) throws {
        try store.transaction {
            let tally = try store.runChunkTally(runID: runID)
            guard tally.isFinished else {
                throw StoreError.corrupt("run \(runID): \(tally.total - tally.done) of its chunks are not done")
            }
            guard let run = try store.run(id: runID) else { throw StoreError.corrupt("run \(runID) is missing") }
            var gained = FormularyStore.RunCounts()
            for formID in chunkedFormIDs {
                guard let now = run.forms.first(where: { $0.formID == formID }) else { continue }
                let then = before.first { $0.formID == formID }?.counts ?? FormularyStore.RunCounts()
                gained += FormularyStore.RunCounts(entriesChecked: now.counts.entriesChecked - then.entriesChecked,
                                    entriesInvalid: now.counts.entriesInvalid - then.entriesInvalid,
                                    entriesWarned: now.counts.entriesWarned - then.entriesWarned,
                                    errors: now.counts.errors - then.errors, warnings: now.counts.warnings - then.warnings)
            }
            guard gained == tally.committed else {
                throw StoreError.corrupt("run \(runID): its forms gained \(gained) but its chunks committed \(tally.committed)")
            }
            if let lastChunk {
                let writer = try store.runResultWriter(runID: runID)
                for formID in chunkedFormIDs {
                    try writer.progress(formID: formID, judgedThrough: lastChunk.throughID, counts: FormularyStore.RunCounts())
                }
            }
            // Written by several processes (or carried, or judged by several writers here):
            // the digest is read back.
            try store.finishRun(id: runID, status: .complete, error: nil, actor: options.actor, written: written)
        }
    }
}
