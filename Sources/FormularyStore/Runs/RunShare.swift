/// What makes a validation run shared between processes (`validate --join`): where its
/// entries are read from and how long a claim on one of its chunks lasts.
package struct RunShare: Sendable, Hashable {
    /// The run.
    package var runID: Int64
    /// The snapshot of the entries the run judges, as the storage names it (PostgreSQL: the
    /// id `pg_export_snapshot()` gave the starting process, valid while that process holds it).
    package var snapshot: String
    /// How long a claim lasts without being renewed, in seconds.
    package var leaseSeconds: Double
    /// Fields the starting process judged as `secure` although their type version is not
    /// (an earlier version was): form id → field keys. Joiners mask the same ones.
    package var masked: [Int64: Set<String>]

    /// A sharing record.
    package init(runID: Int64, snapshot: String, leaseSeconds: Double, masked: [Int64: Set<String>] = [:]) {
        self.runID = runID
        self.snapshot = snapshot
        self.leaseSeconds = leaseSeconds
        self.masked = masked
    }

    /// `masked` as stored: one `FORM_ID<TAB>FIELD` line each, sorted.
    package var maskedText: String {
        masked.flatMap { form, fields in fields.map { "\(form)\t\($0)" } }.sorted().joined(separator: "\n")
    }

    /// `masked` from its stored text.
    package static func masked(from text: String) -> [Int64: Set<String>] {
        var out: [Int64: Set<String>] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, let form = Int64(parts[0]) else { continue }
            out[form, default: []].insert(String(parts[1]))
        }
        return out
    }
}

/// One chunk of a shared run as a process claimed it: entries with `afterID < id <= throughID`.
package struct RunChunk: Sendable, Hashable {
    /// The chunk's number in the run, from 1 in id order.
    package var seq: Int
    /// The chunk's entries have ids above this one…
    package var afterID: Int64
    /// …and up to this one.
    package var throughID: Int64
    /// The claim: the chunk's results commit only while it still holds the chunk.
    package var token: String
    /// How often the chunk was claimed, this claim included (more than 1: taken over after
    /// a lease expired).
    package var claims: Int

    /// A claimed chunk.
    package init(seq: Int, afterID: Int64, throughID: Int64, token: String, claims: Int) {
        self.seq = seq
        self.afterID = afterID
        self.throughID = throughID
        self.token = token
        self.claims = claims
    }
}

/// How far the chunks of a shared run are.
package struct RunChunkTally: Sendable, Hashable {
    /// Chunks of the run.
    package var total = 0
    /// Never claimed.
    package var pending = 0
    /// Claimed, lease running.
    package var claimed = 0
    /// Claimed, lease expired: another process may take them over.
    package var expired = 0
    /// Committed.
    package var done = 0
    /// Seconds until the first running lease expires (nil when none runs).
    package var secondsToNextExpiry: Double?
    /// The counts recorded by the chunks' commits, added up.
    package var committed = RunCounts()

    /// A tally.
    package init(total: Int = 0, pending: Int = 0, claimed: Int = 0, expired: Int = 0, done: Int = 0,
                secondsToNextExpiry: Double? = nil, committed: RunCounts = RunCounts()) {
        self.total = total
        self.pending = pending
        self.claimed = claimed
        self.expired = expired
        self.done = done
        self.secondsToNextExpiry = secondsToNextExpiry
        self.committed = committed
    }

    /// Whether every chunk is done.
    package var isFinished: Bool { done == total }
}

extension Store {
    /// Whether this store's runs may be shared with other processes (PostgreSQL).
    package var sharesRuns: Bool { backend.sharesRuns }

    /// The id under which other processes read the same entries as `snapshot` (one of
    /// ``beginEntrySnapshots(count:)``'s), or nil on SQLite.
    package func sharedSnapshotID(of snapshot: EntrySnapshot) -> String? {
        backend.sharedSnapshot(of: snapshot.scan)
    }

    /// `count` snapshots that see the entries as another process's snapshot `id` does.
    package func joinEntrySnapshots(id: String, count: Int) throws -> [EntrySnapshot] {
        try backend.joinEntryScans(snapshot: id, count: count).map(EntrySnapshot.init)
    }

    /// Records run `share.runID` as shared and its chunks (id ranges, in order), pending.
    package func shareRun(_ share: RunShare, chunks: [(afterID: Int64, throughID: Int64)]) throws {
        try transaction { try backend.insertRunShare(share, chunks: chunks) }
    }

    /// The sharing record of run `runID`, nil when it is not shared.
    package func runShare(runID: Int64) throws -> RunShare? {
        try backend.runShare(runID: runID)
    }

    /// Claims the next chunk of a running shared run that nobody holds (pending, or its
    /// lease expired) for this process; nil when there is none. Outside any transaction.
    package func claimRunChunk(runID: Int64) throws -> RunChunk? {
        try backend.claimRunChunk(runID: runID, worker: Self.workerName)
    }

    /// Extends a held claim's lease; false when the chunk was taken over or the run ended.
    package func renewRunChunk(runID: Int64, _ chunk: RunChunk) throws -> Bool {
        try backend.renewRunChunk(runID: runID, chunk)
    }

    /// Marks a claimed chunk done with its counts; call inside the ``transaction(_:)`` that
    /// writes its results, first. False (nothing changed) when the claim no longer holds it:
    /// then roll the transaction back.
    package func commitRunChunk(runID: Int64, _ chunk: RunChunk, counts: RunCounts) throws -> Bool {
        try backend.commitRunChunk(runID: runID, chunk, worker: Self.workerName, counts: counts)
    }

    /// How far the chunks of run `runID` are.
    package func runChunkTally(runID: Int64) throws -> RunChunkTally {
        try backend.runChunkTally(runID: runID)
    }

    /// This process as chunk claims name it: `HOST:PID`.
    static var workerName: String { "\(RunProcess.current.host):\(RunProcess.current.pid)" }
}
