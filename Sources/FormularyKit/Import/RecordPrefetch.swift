import Foundation
import FormularyStore

/// Reads an import file's records on a thread of its own, a few batches ahead of the thread
/// that stores them, and encodes their values (``EntryValues``) there too: parsing and
/// encoding were three fifths of an import's time and storing the rest, so the two halves
/// run side by side on two cores.
///
/// The consumer sees exactly what ``RecordReader/forEachRecord(onBadRecord:_:)`` would have
/// given it, in the same order: each record, each recoverable error passed to `onBadRecord`
/// (when collecting them), and at the end the error that stopped the reading, if any. When
/// the consumer stops early (it threw), the reading thread is stopped and waited for before
/// ``forEach(_:)`` returns, so the reader is never used by two threads at once.
final class RecordPrefetch: @unchecked Sendable {
    enum Event {
        /// A record and its values encoded for storage.
        case record(Record, encoded: [UInt8])
        /// A recoverable error the reading skipped (only with `collectsBadRecords`).
        case bad(RecordReadError)
    }

    /// Records per batch handed over, and batches that may wait: bounds the memory ahead.
    static let batchSize = 256
    static let window = 3

    private let reader: any RecordReader
    private let collectsBadRecords: Bool
    private let condition = NSCondition()
    private var ready: [[Event]] = []
    private var finished = false
    private var failure: (any Error)?
    private var stopped = false
    private var threadEnded = false

    /// - Parameter collectsBadRecords: pass recoverable errors on as ``Event/bad(_:)`` and go
    ///   on reading (`import --skip-bad`); otherwise the first bad record ends the reading.
    init(_ reader: any RecordReader, collectsBadRecords: Bool) {
        self.reader = reader
        self.collectsBadRecords = collectsBadRecords
    }

    private struct Stopped: Error {}

    /// Calls `body` with every event in reading order, then throws the error that ended the
    /// reading, if any.
    func forEach(_ body: (Event) throws -> Void) throws {
        let thread = Thread { [self] in
            var batch: [Event] = []
            batch.reserveCapacity(Self.batchSize)
            var scratch: [UInt8] = []
            var error: (any Error)?
            do {
                try reader.forEachRecord(onBadRecord: collectsBadRecords ? { batch.append(.bad($0)) } : nil) { record in
                    EntryValues.encode(record.values, into: &scratch)
                    batch.append(.record(record, encoded: scratch))
                    if batch.count >= Self.batchSize {
                        guard hand(batch) else { throw Stopped() }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            } catch is Stopped {
            } catch let thrown {
                error = thrown
            }
            condition.lock()
            if !batch.isEmpty && !stopped { ready.append(batch) }
            finished = true
            failure = error
            threadEnded = true
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 1 << 20
        thread.start()
        defer { stopAndWait() }
        while true {
            condition.lock()
            while ready.isEmpty && !finished { condition.wait() }
            // One batch at a time: the reader refills the window meanwhile, and no more than
            // the window's records are ever in memory.
            let batch = ready.isEmpty ? nil : ready.removeFirst()
            let error = failure
            condition.broadcast()
            condition.unlock()
            guard let batch else {
                if let error { throw error }
                return
            }
            for event in batch { try body(event) }
        }
    }

    /// Hands a full batch over, waiting while the window is full; false once stopped.
    private func hand(_ batch: [Event]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while ready.count >= Self.window && !stopped { condition.wait() }
        guard !stopped else { return false }
        ready.append(batch)
        condition.broadcast()
        return true
    }

    /// Stops the reading thread and waits until it has ended.
    private func stopAndWait() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !threadEnded { condition.wait() }
        condition.unlock()
    }
}
