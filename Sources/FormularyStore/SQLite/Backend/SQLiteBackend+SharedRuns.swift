/// Runs shared between processes are for servers: an SQLite file has one writer at a time
/// on one machine, and one process's worker threads already read it as fast as it goes. The
/// requirements exist so that the store's callers can ask; each says so.
extension SQLiteBackend {
    package var sharesRuns: Bool { false }

    package func sharedSnapshot(of scan: any EntryScanning) -> String? { nil }

    package func joinEntryScans(snapshot: String, count: Int) throws -> [any EntryScanning] {
        throw StoreError.needsServer("joining a validation run")
    }

    package func insertRunShare(_ share: RunShare, chunks: [(afterID: Int64, throughID: Int64)]) throws {
        throw StoreError.needsServer("sharing a validation run")
    }

    package func runShare(runID: Int64) throws -> RunShare? { nil }

    package func claimRunChunk(runID: Int64, worker: String) throws -> RunChunk? {
        throw StoreError.needsServer("joining a validation run")
    }

    package func renewRunChunk(runID: Int64, _ chunk: RunChunk) throws -> Bool {
        throw StoreError.needsServer("joining a validation run")
    }

    package func commitRunChunk(runID: Int64, _ chunk: RunChunk, worker: String, counts: RunCounts) throws -> Bool {
        throw StoreError.needsServer("joining a validation run")
    }

    package func runChunkTally(runID: Int64) throws -> RunChunkTally { RunChunkTally() }
}
