import Foundation
import Testing

/// What only the `formulary` executable shows, run as a process: the exit status the shell
/// sees for each outcome (the in-process tests check the status the runner returns, which
/// main.swift passes to `exit`), each stream on its own descriptor, and a reader that goes
/// away early (`formulary … | head`), which must not kill the process with SIGPIPE.
@Suite struct ProcessExitTests {
    @Test func eachExitStatusReachesTheShell() throws {
        let sandbox = try Sandbox()
        let valid = try sandbox.spawn("check", "credit-card", "4111 1111 1111 1111")
        #expect(valid.status == 0 && valid.stdout.hasPrefix("valid") && valid.stderr.isEmpty, "\(valid)")
        let invalid = try sandbox.spawn("check", "credit-card", "4111 1111 1111 1112")
        #expect(invalid.status == 1 && invalid.stdout.hasPrefix("invalid") && invalid.stderr.isEmpty, "\(invalid)")
        let usage = try sandbox.spawn("check", "credit-card")
        #expect(usage.status == 2 && usage.stdout.isEmpty, "\(usage)")
        #expect(usage.errorLines.last == "See 'formulary check --help'.", "\(usage)")
        let environment = try sandbox.spawn("entries", "list")
        #expect(environment.status == 3 && environment.stdout.isEmpty, "\(environment)")
        #expect(environment.errorLines.first?.hasPrefix("formulary: error: no database at") == true, "\(environment)")
    }

    /// `types list | head -1`: the command ends quietly when its reader has gone, with the
    /// status of its own work (SIGPIPE is ignored; the write's EPIPE ends the output).
    @Test func aReaderThatGoesAwayEarlyEndsTheCommandQuietly() throws {
        let binary = try FormularyProcess.executable.get()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Many lines, so that the writes go on after head has exited; PIPESTATUS is bash's,
        // so the status comes back through a file.
        let status = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-pipe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: status) }
        process.arguments = ["-c", "{ \"$F\" format data $(seq 1 50000); echo $? > \"$S\"; } | head -1"]
        process.environment = ["F": binary, "S": status.path, "FORMULARY_PATH": "", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let first = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(first == "1\n")
        #expect(try String(contentsOf: status, encoding: .utf8) == "0\n", "stderr: \(stderr)")
        #expect(stderr.isEmpty, "\(stderr)")
    }
}
