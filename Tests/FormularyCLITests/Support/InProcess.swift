import Foundation
import FormularyCLI
import FormularyPostgres

/// Runs `formulary` commands in this process, as the executable's main.swift does but with
/// captured output: the runner (`Formulary.run`) gets the arguments, exactly the
/// environment given, a file as standard input and two capturing streams.
///
/// What only a process has is not here, and tests that need it spawn the executable
/// (``Sandbox/spawn(_:environment:stdin:launcher:stdoutPath:)``): the exit status as the
/// shell sees it, signals, a terminal, several processes at once, file permissions under
/// `setpriv`, standard output on a full disk, and the test hooks (`FORMULARY_TEST_*`), which
/// main.swift installs for the whole process.
enum InProcess {
    /// A command names files relative to the current directory, which is the process's. So
    /// on Linux each command runs on a thread of its own that first takes a private copy of
    /// it (`unshare(CLONE_FS)`) and moves that to the sandbox: commands run side by side and
    /// no test waits on another's. (A process-wide lock around `chdir` had every CLI test
    /// queue on one lock while holding one of the test runner's threads — two on a two-core
    /// machine — and starved the rest of the suite for minutes.) Threads the command starts
    /// share its directory; Dispatch's pool threads do not, and no command opens a relative
    /// path on one. Elsewhere, one command at a time.
    #if !os(Linux)
    private static let lock = NSLock()
    #endif

    /// What main.swift does before any command: `postgres://` databases open PostgreSQL.
    private static let installed: Void = PostgresBackend.install()

    struct NeedsAProcess: Error, CustomStringConvertible {
        var variables: [String]
        var description: String {
            "\(variables.joined(separator: ", ")) only works in a process (main.swift installs the test hooks): "
                + "run the command with sandbox.spawn"
        }
    }

    static func run(_ arguments: [String], environment: [String: String], directory: URL,
                    stdin: Data?) throws -> ProcessResult {
        let hooks = environment.keys.filter { $0.hasPrefix("FORMULARY_TEST_") }.sorted()
        guard hooks.isEmpty else { throw NeedsAProcess(variables: hooks) }
        _ = installed
        // Standard input is a regular file, as the spawned runs give it (a size is known).
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-stdin-\(UUID().uuidString)")
        try (stdin ?? Data()).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let fd = open(input.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }

        let stdout = OutputStream.capturing()
        let stderr = OutputStream.capturing()
        let status = try inDirectory(directory) {
            Formulary.run(arguments: arguments, environment: environment, standardInput: fd,
                          standardOutput: stdout, standardError: stderr)
        }
        return ProcessResult(arguments: arguments, status: status.rawValue,
                             stdout: String(decoding: stdout.captured, as: UTF8.self),
                             stderr: String(decoding: stderr.captured, as: UTF8.self))
    }

    /// Runs `body` with `directory` as the current directory, on a thread of its own.
    private static func inDirectory<T>(_ directory: URL, _ body: @escaping () -> T) throws -> T {
        #if os(Linux)
        // This thread waits while the command's runs, so the box is never used by both at once.
        let box = ResultBox<T>(body)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            defer { done.signal() }
            guard unshare(CLONE_FS) == 0, chdir(directory.path) == 0 else {
                box.result = .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                return
            }
            box.result = .success(box.body())
        }
        thread.stackSize = 8 << 20   // a main thread's, which the executable runs commands on
        thread.start()
        done.wait()
        return try box.result!.get()
        #else
        lock.lock()
        defer { lock.unlock() }
        let previous = FileManager.default.currentDirectoryPath
        guard chdir(directory.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { chdir(previous) }
        return body()
        #endif
    }

    #if os(Linux)
    /// Glibc's `unshare`, which Swift's Glibc module leaves out (a GNU extension): found by
    /// name. `unshare(CLONE_FS)` gives the calling thread a current directory of its own.
    private static let unshare: @convention(c) (Int32) -> Int32 = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "unshare") else { fatalError("this C library has no unshare") }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()
    private static let CLONE_FS: Int32 = 0x200
    #endif
}

/// A result handed from a command's thread to the test's.
private final class ResultBox<T>: @unchecked Sendable {
    let body: () -> T
    var result: Result<T, Error>?
    init(_ body: @escaping () -> T) { self.body = body }
}
