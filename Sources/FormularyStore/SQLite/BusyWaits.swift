#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection's busy handler: how long to wait for another connection's lock, and a
/// record of the waits.
///
/// The delays grow like SQLite's own handler's (1, 2, 5 … 100 ms, then 100 ms each) until
/// their sum reaches the timeout; then the statement fails with `SQLITE_BUSY`. The record
/// counts the handler's own decisions, so a test can show that a connection waited and why
/// it stopped without reading a clock. A connection belongs to one thread at a time, and
/// SQLite calls the handler on that thread, so the counts need no lock.
final class BusyWaits {
    /// What the handler has done on this connection so far.
    struct Record: Equatable {
        /// Waits begun: calls with attempt 0, one per statement that found the lock taken.
        var waitsBegun = 0
        /// Delays slept (each a retry).
        var retries = 0
        /// Milliseconds the handler chose to sleep in all, without the jitter.
        var plannedMilliseconds = 0
        /// Waits that reached the timeout (the statement then failed with `SQLITE_BUSY`).
        var timeouts = 0
    }

    let timeoutMilliseconds: Int
    private(set) var record = Record()

    static let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

    init(timeoutMilliseconds: Int) {
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    /// Sleeps before retry number `attempt` (SQLite counts from 0 for each wait) and says
    /// whether to retry; false once the delays so far add up to the timeout.
    func shouldRetry(attempt: Int) -> Bool {
        if attempt == 0 {
            record.waitsBegun += 1
            Database.waitObserver?()
        }
        let delays = Self.delays
        let waited = attempt < delays.count
            ? delays[..<attempt].reduce(0, +)
            : delays.reduce(0, +) + (attempt - delays.count) * delays[delays.count - 1]
        let delay = attempt < delays.count ? delays[attempt] : delays[delays.count - 1]
        guard waited < timeoutMilliseconds else {
            record.timeouts += 1
            return false
        }
        let sleep = min(delay, timeoutMilliseconds - waited)
        record.retries += 1
        record.plannedMilliseconds += sleep
        // Jitter keeps racing processes from waking in lockstep.
        usleep(UInt32(sleep * 1000 + Int.random(in: 0..<500)))
        return true
    }
}
