import Foundation
import Testing

/// Output that cannot be written: a report file or standard output on a full disk (for real:
/// /dev/full answers every write with ENOSPC), in a folder that refuses it, or behind an
/// injected I/O error is an environment failure (exit 3) naming the file and what to do; a
/// path that cannot be a file (a folder, a missing folder) is a usage error (exit 2).
@Suite struct OutputFileTests {
    static func validated() throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("good.csv", "name,email,age\nAda,ada@example.com,36\nBo,bo@example,17\n")
        try sandbox.mustRun("import", "--form", "signup", "good.csv")
        _ = try sandbox.run("validate")
        return sandbox
    }

    /// `full` is a link to /dev/full in the sandbox: a report must be written into the device
    /// (never renamed over it, which would replace the link — or, given /dev/full itself as
    /// root, the device node) and the failed write is a full disk.
    @Test func aReportOntoAFullDiskIsAnEnvironmentFailure() throws {
        let sandbox = try Self.validated()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("full"), withDestinationPath: "/dev/full")
        for format in ["text", "json", "csv", "html"] {
            let result = try sandbox.run("report", "--format", format, "--output", "full")
            #expect(result.status == 3, "\(result)")
            #expect(result.errorLines.first?.hasPrefix("formulary: error: cannot write the report to full: No space left on device") == true,
                    "\(result)")
            #expect(result.stderr.contains("Free some space"), "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
        }
        let link = try FileManager.default.attributesOfItem(atPath: sandbox.path("full"))
        #expect(link[.type] as? FileAttributeType == .typeSymbolicLink, "the link was replaced by a file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    /// A device that takes the bytes is written into: a link to /dev/stdout prints the report.
    /// (A link in the sandbox, never /dev/stdout itself: a broken build running as root
    /// would rename a file over the machine's device link.)
    @Test func aReportToADeviceIsWrittenIntoIt() throws {
        let sandbox = try Self.validated()
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("out"), withDestinationPath: "/dev/stdout")
        let result = try sandbox.spawn("report", "--format", "csv", "--output", "out")
        #expect(result.status == 0, "\(result)")
        // (The capture file is opened a second time through the link, at its start.)
        #expect(result.stdout.contains("1,signup,2,,age,age,"), "\(result)")
        let link = try FileManager.default.attributesOfItem(atPath: sandbox.path("out"))
        #expect(link[.type] as? FileAttributeType == .typeSymbolicLink, "the link was replaced by a file")
    }

    /// A path that cannot be a file is the user's to fix (exit 2); the message says why.
    @Test func aPathThatCannotBeAFileIsAUsageError() throws {
        let sandbox = try Self.validated()
        try sandbox.mkdir("reports")
        let folder = try sandbox.run("report", "--output", "reports")
        #expect(folder.status == 2, "\(folder)")
        #expect(folder.errorLines.first?.hasPrefix("formulary: error: cannot write the report to reports: is a folder, not a file") == true,
                "\(folder)")
        let missing = try sandbox.run("report", "--format", "html", "--output", "no-such/run.html")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("cannot write the report to no-such/run.html: the folder no-such does not exist"), "\(missing)")
        #expect(missing.stderr.contains("Create the folder first"), "\(missing)")
    }

    /// A folder that refuses new files (permissions applied even when the tests run as root)
    /// is the environment's (exit 3), and an earlier report there stays as it was.
    @Test func aFolderWithoutWritePermissionIsAnEnvironmentFailure() throws {
        let sandbox = try Self.validated()
        guard let launcher = FormularyProcess.withoutPrivileges else { return }   // root without setpriv
        try sandbox.write("locked/run.csv", "earlier\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: sandbox.path("locked"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.path("locked")) }
        let result = try sandbox.spawn(["report", "--format", "csv", "--output", "locked/run.csv"], launcher: launcher)
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("cannot write the report to locked/run.csv: Permission denied"), "\(result)")
        #expect(result.stderr.contains("Check the permissions"), "\(result)")
        #expect(try String(contentsOfFile: sandbox.path("locked/run.csv"), encoding: .utf8) == "earlier\n")
    }

    /// An I/O error while writing (injected) leaves the earlier file and no temporary. (An
    /// HTML report goes to its default file on a terminal only: the test runs on one.)
    @Test func anIOErrorLeavesTheEarlierReport() throws {
        let sandbox = try Self.validated()
        try sandbox.write("formulary-report-run-1.html", "earlier")
        let result = try PseudoTerminal.run(["report", "--format", "html"], in: sandbox,
                                            environment: ["FORMULARY_TEST_FAULT": "write:1:ioerr"])
        #expect(result.status == 3, "\(result)")
        #expect(result.text.contains("cannot write the report to formulary-report-run-1.html: Input/output error"), "\(result)")
        #expect(result.text.contains("Check the disk"), "\(result)")
        #expect(try String(contentsOfFile: sandbox.path("formulary-report-run-1.html"), encoding: .utf8) == "earlier")
    }

    /// Standard output onto a full disk: every command that prints is an environment failure
    /// that says the output is incomplete, instead of exit 0 with nothing written.
    @Test func standardOutputOntoAFullDiskIsAnEnvironmentFailure() throws {
        let sandbox = try Self.validated()
        for arguments in [["export"], ["report"], ["--format", "csv", "report"], ["entries", "list"], ["audit"],
                          ["types", "list"], ["check", "age", "17"], ["--help"]] {
            let result = try sandbox.spawn(arguments, stdoutPath: "/dev/full")
            #expect(result.status == 3, "\(result)")
            #expect(result.errorLines.last?.hasPrefix("formulary: error: cannot write to standard output: No space left on device; the output is incomplete") == true,
                    "\(result)")
        }
        // A usage error stays one.
        #expect(try sandbox.spawn(["report", "--by", "colour"], stdoutPath: "/dev/full").status == 2)
    }

    /// The demo's HTML report on a full disk: exit 3 naming the file.
    @Test func theDemoOnAFullDiskIsAnEnvironmentFailure() throws {
        let sandbox = try Sandbox()
        try sandbox.mkdir("tmp")
        let result = try sandbox.spawn(["demo"], environment: ["TMPDIR": sandbox.path("tmp"), "FORMULARY_TEST_FAULT": "write:1:full"])
        #expect(result.status == 3, "\(result)")
        let line = try #require(result.errorLines.first)
        #expect(line.contains("cannot write \(sandbox.path("tmp"))/formulary-demo-"), "\(result)")
        #expect(line.contains("/formulary-report-run-1.html: No space left on device; free some space"), "\(result)")
    }
}
