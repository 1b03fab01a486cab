import Foundation

/// Chunks' outcomes between the worker threads that judge them and the one thread that
/// writes them, behind one condition lock: a worker delivers an outcome or fails, the writer
/// takes outcomes by chunk index, and stopping waits until every worker has ended. What the
/// workers take next is the subclass's: ``ChunkBoard`` counts through a run's chunks,
/// ``ClaimedChunks`` hands over the chunks its process claimed.
class ChunkOutcomes: @unchecked Sendable {
    /// Subclasses wait on it for their own state too; every broadcast wakes both sides.
    let condition = NSCondition()
    private var outcomes: [Int: ChunkOutcome] = [:]
    private var failure: (any Error)?
    /// Set by a worker's failure or by ``stopAndWait()``: workers take no more chunks. Read
    /// and written under `condition`.
    var stopped = false
    private var running: Int

    init(workers: Int) { running = workers }

    func deliver(_ index: Int, _ outcome: ChunkOutcome) {
        condition.lock()
        outcomes[index] = outcome
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        if failure == nil { failure = error }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    func workerEnded() {
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Chunk `index`'s outcome; nil only when it is not ready by `deadline` (without one,
    /// waits as long as it takes). A worker's failure is thrown.
    func take(_ index: Int, until deadline: Date? = nil) throws -> ChunkOutcome? {
        condition.lock()
        defer { condition.unlock() }
        while outcomes[index] == nil && failure == nil {
            // No far-future date for "no deadline": Foundation on Linux traps converting one.
            guard let deadline else { condition.wait(); continue }
            if !condition.wait(until: deadline) { break }
        }
        if let failure { throw failure }
        guard let outcome = outcomes.removeValue(forKey: index) else { return nil }
        didTake(index)
        return outcome
    }

    /// Called under the lock when the writer took chunk `index`.
    func didTake(_ index: Int) {}

    /// Stops the workers and waits until every one has ended.
    func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
