import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process that does a validation run, recorded with the run so that a reader can tell a
/// live run from one whose process died (killed, crashed, machine restarted): such a run stays
/// `running` in the database but reads as incomplete.
///
/// A pid alone is not enough, since pids are reused: on Linux the process's start time
/// (`/proc/PID/stat`, field 22, in clock ticks since boot) is recorded with it, and a process
/// with that pid and another start time is another process. A run recorded on another host
/// cannot be checked and is taken as live.
package struct RunProcess: Sendable, Hashable {
    package var host: String
    package var pid: Int64
    /// The start time token; empty where the platform has none.
    package var start: String

    package init(host: String, pid: Int64, start: String) {
        self.host = host
        self.pid = pid
        self.start = start
    }

    /// This process.
    package static let current: RunProcess = {
        let pid = Int64(getpid())
        return RunProcess(host: hostName(), pid: pid, start: startToken(of: pid) ?? "")
    }()

    /// Whether the process is still running (always true for another host's process).
    package var isAlive: Bool {
        guard host == RunProcess.current.host else { return true }
        if self == RunProcess.current { return true }
        guard pid > 0, pid <= Int64(Int32.max) else { return false }
        if kill(pid_t(pid), 0) != 0 && errno != EPERM { return false }
        guard !start.isEmpty, let token = Self.startToken(of: pid) else { return true }
        return token == start
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "" }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Field 22 of `/proc/PID/stat` (after the parenthesized command name, which may itself
    /// hold spaces and parentheses), or nil.
    static func startToken(of pid: Int64) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After ")": state is field 3, so field 22 is index 19.
        guard fields.count > 19 else { return nil }
        return String(fields[19])
    }
}
