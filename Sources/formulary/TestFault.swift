// Test builds only (Package.swift defines FORMULARY_TEST_HOOKS for debug builds): a release
// binary has no such hook and reads no such variable.
#if FORMULARY_TEST_HOOKS
#if canImport(Glibc)
import Glibc
#endif
import FormularyKit
import Synchronization

/// The fault-injection test hook, `FORMULARY_TEST_FAULT`:
///
/// - `step:K:CODE` makes the K-th SQLite step of the process (counted over every connection,
///   reads, `BEGIN` and `COMMIT` included) fail with CODE instead of running: `full`
///   (`SQLITE_FULL`), `ioerr` (`SQLITE_IOERR_WRITE`) or `busy` (`SQLITE_BUSY`);
/// - `write:K:CODE` makes the K-th output file the process writes (a report, the demo's
///   page) fail with CODE: `full` (`ENOSPC`) or `ioerr` (`EIO`).
///
/// It exists so that process-level tests can prove what a user sees when the disk fills up
/// or fails (docs/reliability.md). Anything but a well-formed value is ignored, and the
/// variable does nothing else.
enum TestFault: Equatable {
    case step(Int, code: Int32)
    case write(Int, code: Int32)

    static let variable = "FORMULARY_TEST_FAULT"

    /// The SQLite codes by name. `ioerr` is a write error, the I/O error a full or failing disk gives.
    static let codes: [String: Int32] = ["full": 13, "ioerr": 778, "busy": 5]
    /// The `errno` values by name, for output files.
    static let fileCodes: [String: Int32] = ["full": ENOSPC, "ioerr": EIO]

    /// The fault `text` describes, or nil unless it is exactly `step:K:CODE` or `write:K:CODE`
    /// with K a decimal number from 1 to 999,999,999 and CODE one of ``codes`` (``fileCodes``).
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
              (1...9).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ (48...57).contains($0) }),
              let count = Int(parts[1]), count >= 1 else { return nil }
        switch parts[0] {
        case "step":
            guard let code = Self.codes[String(parts[2])] else { return nil }
            self = .step(count, code: code)
        case "write":
            guard let code = Self.fileCodes[String(parts[2])] else { return nil }
            self = .write(count, code: code)
        default:
            return nil
        }
    }

    /// Installs the fault named by the environment, if any, for every connection this process
    /// opens and every output file it writes.
    static func install(from environment: [String: String]) {
        guard let text = environment[variable], let fault = TestFault(text) else { return }
        let calls = CallCounter()
        switch fault {
        case let .step(target, code):
            StoreTestHooks.failSteps { calls.next() == target ? code : nil }
        case let .write(target, code):
            OutputFile.faultHook = { _ in calls.next() == target ? code : nil }
        }
    }
}

/// Counts calls across threads (hooks run on every connection's thread).
private final class CallCounter: Sendable {
    private let count = Mutex(0)

    /// The number of this call, from 1.
    func next() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }
}
#endif
