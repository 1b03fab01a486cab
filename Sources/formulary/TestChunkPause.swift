// Test builds only (Package.swift defines FORMULARY_TEST_HOOKS for debug builds): a release
// binary has no such hook and reads no such variable.
#if FORMULARY_TEST_HOOKS
import FormularyKit

/// The shared-run test hook, `FORMULARY_TEST_CHUNK_PAUSE=SECONDS`: each worker thread waits
/// that long after taking a chunk of a shared run (PostgreSQL) and before judging it, while
/// the process keeps renewing its claims.
///
/// It exists so that process-level tests can stop a `validate --join` process (SIGKILL)
/// while it certainly holds a claimed chunk, and see another process take the chunk over
/// after its lease, instead of racing a run that ends in a blink (docs/scale-out.md). Only a
/// number from 0 to 60 counts; the variable does nothing else.
enum TestChunkPause {
    static let variable = "FORMULARY_TEST_CHUNK_PAUSE"

    static func install(from environment: [String: String]) {
        guard let text = environment[variable], let seconds = Double(text), seconds > 0, seconds <= 60 else { return }
        SharedRunTestHooks.pauseBeforeJudging(seconds: seconds)
    }
}
#endif
