import Foundation

/// What one run of the `formulary` executable produced.
struct ProcessResult: CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var stdout: String
    var stderr: String

    /// The lines of standard output, without the trailing empty one.
    var outputLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    var errorLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }

    /// Shown by failing expectations, so that a failure says what the command printed.
    var description: String {
        "formulary \(arguments.joined(separator: " ")) → exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
    }
}

private extension Array where Element == String {
    func dropLastIfEmpty() -> [String] { last == "" ? Array(dropLast()) : self }
}

/// Finds and runs the built `formulary` executable as a child process.
///
/// The binary sits in the same build folder as the test bundle (`swift build --build-tests`
/// builds both), so it is found from the test process's own path. `FORMULARY_TEST_BINARY`
/// overrides that, e.g. to run the spawned tests against a release build (the others run
/// the commands in-process, ``InProcess``).
enum FormularyProcess {
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the formulary executable was not found (looked in \(searched.joined(separator: ", "))); "
                + "build it first with 'swift build --build-tests', or set FORMULARY_TEST_BINARY"
        }
    }

    /// The executable's absolute path.
    static let executable: Result<String, NotFound> = locate()

    /// How to run the executable so that file permissions apply to it, or nil when that is
    /// impossible here. Tests run as root on some machines, and root reads and writes files
    /// whatever their permissions say; `setpriv` drops the capabilities that let it
    /// (`CAP_DAC_OVERRIDE`, `CAP_DAC_READ_SEARCH`, `CAP_FOWNER`) from the process it runs,
    /// which then meets `chmod`ded files and folders as any user would. Other users need nothing.
    static let withoutPrivileges: [String]? = {
        guard geteuid() == 0 else { return [] }
        let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return setpriv.map { [$0, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"] }
    }()

    private static func locate() -> Result<String, NotFound> {
        let fm = FileManager.default
        if let override = ProcessInfo.processInfo.environment["FORMULARY_TEST_BINARY"], !override.isEmpty {
            return fm.isExecutableFile(atPath: override) ? .success(override) : .failure(NotFound(searched: [override]))
        }
        // /proc/self/exe is the test runner (…/debug/FormularyPackageTests.xctest); the
        // executable is its sibling. Walk up a few levels for layouts that nest the bundle.
        let selfPath = (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: selfPath).resolvingSymlinksInPath().deletingLastPathComponent()
        var searched: [String] = []
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("formulary").path
            searched.append(directory.path)
            if fm.isExecutableFile(atPath: candidate) { return .success(candidate) }
            directory.deleteLastPathComponent()
        }
        return .failure(NotFound(searched: searched))
    }

    /// Runs the executable with exactly `environment` (nothing is inherited), in
    /// `directory`, feeding it `stdin`. Output goes through files rather than pipes, so a
    /// large output can never dead-lock the two processes. A run that takes longer than
    /// `timeout` seconds is killed (and reported as status 137): a guard against a hung
    /// command stalling the suite, not a speed check, so it is far beyond any command's time
    /// on a loaded machine (speed is measured in bench/).
    ///
    /// `launcher` runs the executable through another program (its path and arguments, the
    /// executable's path following them); `stdoutPath` sends standard output to that file
    /// instead of capturing it (then `stdout` is empty).
    static func run(_ arguments: [String], environment: [String: String], directory: URL,
                    stdin: Data? = nil, timeout: TimeInterval = 600, launcher: [String] = [],
                    stdoutPath: String? = nil) throws -> ProcessResult {
        let path = try executable.get()
        let fm = FileManager.default
        let capture = fm.temporaryDirectory.appendingPathComponent("formulary-run-\(UUID().uuidString)")
        try fm.createDirectory(at: capture, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: capture) }
        let outURL = capture.appendingPathComponent("stdout")
        let errURL = capture.appendingPathComponent("stderr")
        let inURL = capture.appendingPathComponent("stdin")
        fm.createFile(atPath: outURL.path, contents: nil)
        fm.createFile(atPath: errURL.path, contents: nil)
        fm.createFile(atPath: inURL.path, contents: stdin ?? Data())

        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher.first ?? path)
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [path] + arguments
        process.environment = environment
        process.currentDirectoryURL = directory
        let outHandle = try FileHandle(forWritingTo: stdoutPath.map { URL(fileURLWithPath: $0) } ?? outURL)
        let errHandle = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        defer {
            try? outHandle.close()
            try? errHandle.close()
            try? inHandle.close()
        }
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = inHandle
        try process.run()
        let pid = process.processIdentifier
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                kill(pid, SIGKILL)
                process.waitUntilExit()
                break
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        let stdout = try Data(contentsOf: outURL)
        let stderr = try Data(contentsOf: errURL)
        return ProcessResult(arguments: arguments,
                             status: process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus
                                                                                  : process.terminationStatus,
                             stdout: String(decoding: stdout, as: UTF8.self),
                             stderr: String(decoding: stderr, as: UTF8.self))
    }
}
