// Test builds only (Package.swift defines FORMULARY_TEST_HOOKS for debug builds): a release
// binary has no such hook and reads no such variable.
#if FORMULARY_TEST_HOOKS
import FormularyStore

/// The store's test hooks, for front ends that let process-level tests provoke and observe
/// what a user would meet on a failing disk or a busy database (docs/reliability.md).
package enum StoreTestHooks {
    /// Decides, before every SQLite step of every connection the process opens, whether
    /// it fails: a result code to fail with, or nil to run it.
    package typealias StepFault = @Sendable () -> Int32?

    /// Makes every connection opened from now on consult `fault` before each step (reads,
    /// `BEGIN` and `COMMIT` included).
    package static func failSteps(_ fault: @escaping StepFault) {
        Database.defaultStepHook = { _ in fault() }
    }

    /// Calls `observer` each time a connection of the process starts waiting for another
    /// process's database lock.
    package static func observeLockWaits(_ observer: @escaping @Sendable () -> Void) {
        Database.waitObserver = observer
    }
}
#endif
