import Foundation

/// Runs the `formulary` executable on a pseudo-terminal, for the "is a terminal" paths
/// (progress lines, colour) that a test's pipes and files never reach.
///
/// Python's `pty` module (python3 is part of the build machine) forks the child with its
/// standard input, output and error on one pseudo-terminal and collects every byte the
/// terminal received, in the order it received them: standard output and standard error
/// interleaved, as a user would see them, with the terminal's `\n` → `\r\n` translation.
/// `stdinFile` puts a file (or, with `stdinPipe`, a pipe fed from it) on standard input instead.
enum PseudoTerminal {
    struct Output: CustomStringConvertible {
        var status: Int32
        var bytes: [UInt8]
        var text: String { String(decoding: bytes, as: UTF8.self) }
        var description: String {
            "exit \(status), terminal received: "
                + text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
        }
    }

    static let script = #"""
        import os, pty, sys
        binary, stdin_file, stdin_pipe = sys.argv[1], sys.argv[2], sys.argv[3] == "pipe"
        args = sys.argv[4:]
        if stdin_pipe:
            read_end, write_end = os.pipe()
        pid, fd = pty.fork()
        if pid == 0:
            if stdin_file:
                if stdin_pipe:
                    os.close(write_end)
                    os.dup2(read_end, 0)
                else:
                    os.dup2(os.open(stdin_file, os.O_RDONLY), 0)
            os.execv(binary, [binary] + args)
        if stdin_pipe:
            os.close(read_end)
            with open(stdin_file, "rb") as f:
                data = f.read()
            # The child may stop reading early: feed the pipe from a thread, not in the way
            # of collecting the terminal's bytes.
            import threading
            def feed():
                view = memoryview(data)
                try:
                    while view:
                        view = view[os.write(write_end, view[:65536]):]
                except OSError:
                    pass
                os.close(write_end)
            threading.Thread(target=feed, daemon=True).start()
        out = bytearray()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(out)
        sys.stdout.flush()
        sys.exit(os.waitstatus_to_exitcode(status))
        """#

    /// Runs `formulary ARGUMENTS…` in `sandbox`'s folder with its environment (and
    /// `overrides`), on a pseudo-terminal.
    static func run(_ arguments: [String], in sandbox: Sandbox, environment overrides: [String: String?] = [:],
                    stdinFile: String? = nil, stdinPipe: Bool = false) throws -> Output {
        let binary = try FormularyProcess.executable.get()
        var environment = sandbox.environment
        for (name, value) in overrides { environment[name] = value }
        let scriptPath = sandbox.path("pty-run.py")
        try Data(script.utf8).write(to: URL(fileURLWithPath: scriptPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptPath, binary, stdinFile.map(sandbox.path) ?? "", stdinPipe ? "pipe" : "file"]
            + arguments
        // python3 is looked up on the test's own PATH; the child gets the sandbox's environment.
        var pythonEnvironment = environment
        pythonEnvironment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = pythonEnvironment
        process.currentDirectoryURL = sandbox.root
        let capture = sandbox.path("pty-output-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: capture, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: capture))
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
        try? FileManager.default.removeItem(atPath: capture)
        return Output(status: process.terminationStatus, bytes: bytes)
    }
}

/// What a terminal shows after receiving some bytes, for the few controls Formulary sends:
/// printable text overwrites at the cursor, `\r` returns to the line's start, `\n` moves
/// to the next line, `ESC [ K` erases to the end of the line, and other `ESC [ … letter`
/// sequences (colours) change nothing visible.
struct TerminalScreen {
    private(set) var lines: [[Character]] = [[]]
    private var row = 0
    private var column = 0

    init(_ text: String) {
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\r": column = 0
            case "\n":
                row += 1
                if row == lines.count { lines.append([]) }
            case "\u{1B}":
                guard scalars.first == "[" else { continue }
                scalars.removeFirst()
                var final: Unicode.Scalar = "m"
                while let next = scalars.popFirst() {
                    if next.properties.isAlphabetic { final = next; break }
                }
                if final == "K" && column < lines[row].count { lines[row].removeSubrange(column...) }
            default:
                let character = Character(scalar)
                if column < lines[row].count {
                    lines[row][column] = character
                } else {
                    lines[row].append(contentsOf: Array(repeating: " ", count: column - lines[row].count))
                    lines[row].append(character)
                }
                column += 1
            }
        }
    }

    /// The lines with text on them, trailing blanks removed.
    var visibleLines: [String] {
        lines.map { String($0).replacingOccurrences(of: " +$", with: "", options: .regularExpression) }
            .filter { !$0.isEmpty }
    }
}
