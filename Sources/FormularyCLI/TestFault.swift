import FormularyStore
import Synchronization

/// The fault-injection test hook: `FORMULARY_TEST_FAULT=step:K:CODE` makes the K-th SQLite
/// step of the process (counted over every connection, reads, `BEGIN` and `COMMIT`
/// included) fail with CODE instead of running: `full` (`SQLITE_FULL`), `ioerr`
/// (`SQLITE_IOERR_WRITE`) or `busy` (`SQLITE_BUSY`).
///
/// It exists so that process-level tests can prove what a user sees when the disk fills up
/// or fails (docs/reliability.md). Anything but a well-formed value is ignored, and the
/// variable does nothing else.
enum TestFault: Equatable {
    case step(Int, code: Int32)

    static let variable = "FORMULARY_TEST_FAULT"

    /// The codes by name. `ioerr` is a write error, the I/O error a full or failing disk gives.
    static let codes: [String: Int32] = ["full": 13, "ioerr": 778, "busy": 5]

    /// The fault `text` describes, or nil unless it is exactly `step:K:CODE` with K a decimal
    /// number from 1 to 999,999,999 and CODE one of ``codes``.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "step",
              (1...9).contains(parts[1].utf8.count), parts[1].utf8.allSatisfy({ (48...57).contains($0) }),
              let step = Int(parts[1]), step >= 1,
              let code = Self.codes[String(parts[2])] else { return nil }
        self = .step(step, code: code)
    }

    /// Installs the fault named by the environment, if any, for every connection this process
    /// opens.
    static func install(from environment: [String: String]) {
        guard let text = environment[variable], let fault = TestFault(text) else { return }
        guard case .step(let target, let code) = fault else { return }
        let steps = Mutex(0)
        Database.defaultStepHook = { _ in
            let n = steps.withLock { count in
                count += 1
                return count
            }
            return n == target ? code : nil
        }
    }
}
