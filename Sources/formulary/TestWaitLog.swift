// Test builds only (Package.swift defines FORMULARY_TEST_HOOKS for debug builds): a release
// binary has no such hook and reads no such variable.
#if FORMULARY_TEST_HOOKS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FormularyKit

/// The lock-wait test hook: with `FORMULARY_TEST_WAIT_LOG=PATH`, each time a connection of
/// the process starts waiting for another process's database lock, the process appends a
/// line `waiting PID` to PATH.
///
/// It exists so that process-level tests can see a command waiting for a lock another
/// process holds — and then see it finish once the lock is released — instead of inferring
/// the wait from a sleep (docs/reliability.md). An empty value is ignored; the variable does
/// nothing else, and a file that cannot be written is skipped silently (the command's own
/// work and output never depend on it).
enum TestWaitLog {
    static let variable = "FORMULARY_TEST_WAIT_LOG"

    /// Installs the hook when the environment names a file.
    static func install(from environment: [String: String]) {
        guard let path = environment[variable], !path.isEmpty else { return }
        let line = Array("waiting \(getpid())\n".utf8)
        StoreTestHooks.observeLockWaits {
            // One short write with O_APPEND: lines from several processes never interleave.
            let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else { return }
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
    }
}
#endif
