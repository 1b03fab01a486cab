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
    /// One command at a time: a command names files relative to the current directory,
    /// which belongs to the process, so each runs with the sandbox's as the current one.
    /// Tests never name files relative to it (TestHygieneTests), so moving it is safe.
    private static let lock = NSLock()

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

        lock.lock()
        defer { lock.unlock() }
        let previous = FileManager.default.currentDirectoryPath
        guard chdir(directory.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { chdir(previous) }
        let stdout = OutputStream.capturing()
        let stderr = OutputStream.capturing()
        let status = Formulary.run(arguments: arguments, environment: environment, standardInput: fd,
                                   standardOutput: stdout, standardError: stderr)
        return ProcessResult(arguments: arguments, status: status.rawValue,
                             stdout: String(decoding: stdout.captured, as: UTF8.self),
                             stderr: String(decoding: stderr.captured, as: UTF8.self))
    }
}
