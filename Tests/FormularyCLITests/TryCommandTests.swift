import Foundation
import Testing

/// `formulary try` driven on a pseudo-terminal key by key, the way a person types: the
/// driver waits for the field's first line, sends each key and waits for the redraw, then
/// reports every byte the terminal received and whether its settings were restored.
@Suite struct TryCommandTests {
    static let driver = #"""
        import os, pty, sys, time, termios, select
        binary, keys = sys.argv[1], bytes.fromhex(sys.argv[2])
        args = sys.argv[3:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(binary, [binary] + args)
        out = bytearray()
        def pump(until=None, quiet=0.3, limit=20.0):
            # Reads until `until` appears, or until the terminal has been quiet a while.
            end = time.time() + limit
            while time.time() < end:
                r, _, _ = select.select([fd], [], [], quiet)
                if not r:
                    if until is None: return
                    continue
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    return
                if not chunk: return
                out.extend(chunk)
                if until is not None and until in out: return
        pump(until=b"|")
        for key in keys:
            os.write(fd, bytes([key]))
            pump()
        # The child should have left; if it has not within 10 s, it is killed (and the
        # status says so) rather than hanging the test.
        attrs = termios.tcgetattr(fd)
        end = time.time() + 10
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done: break
            if time.time() > end:
                os.kill(pid, 9)
                _, status = os.waitpid(pid, 0)
                break
            pump(quiet=0.1, limit=0.2)
        try:
            attrs = termios.tcgetattr(fd)
        except termios.error:
            pass
        canonical = bool(attrs[3] & termios.ICANON) and bool(attrs[3] & termios.ECHO)
        sys.stdout.buffer.write(b"%d %d\n" % (os.waitstatus_to_exitcode(status), canonical))
        sys.stdout.buffer.write(out)
        """#

    struct Session {
        var status: Int32
        var restored: Bool
        var screen: [String]
    }

    /// Runs `formulary try ARGUMENTS…` on a pseudo-terminal and types `keys`.
    static func session(_ arguments: [String], keys: String, in sandbox: Sandbox) throws -> Session {
        let binary = try FormularyProcess.executable.get()
        let script = sandbox.path("try-driver.py")
        try Data(driver.utf8).write(to: URL(fileURLWithPath: script))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let hex = keys.utf8.map { String(format: "%02x", $0) }.joined()
        process.arguments = ["python3", script, binary, hex, "try"] + arguments
        var environment = sandbox.environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        process.environment = environment
        process.currentDirectoryURL = sandbox.root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let firstLine = text.prefix { $0 != "\n" }.split(separator: " ")
        let status = Int32(firstLine.first ?? "") ?? -1
        let restored = firstLine.count > 1 && firstLine[1] == "1"
        let screen = TerminalScreen(String(text.drop { $0 != "\n" }.dropFirst())).visibleLines
        return Session(status: status, restored: restored, screen: screen)
    }

    @Test func typingShowsTextCaretVerdictAndMessageAndRestoresTheTerminal() throws {
        let sandbox = try Sandbox()
        // 4 1, a refused x, 1111, backspace, left arrow, 9, Enter, Ctrl-D.
        let s = try Self.session(["credit-card"], keys: "41x1111\u{7F}\u{1B}[D9\r\u{04}", in: sandbox)
        #expect(s.status == 0, "\(s)")
        #expect(s.restored, "the terminal was left in raw mode: \(s)")
        #expect(s.screen.first?.hasPrefix("credit-card (Credit Card Number). Type;") == true, "\(s.screen)")
        #expect(s.screen.contains("final: invalid  \"4111 91\"  visa: A Visa card number has 13, 16 or 19 digits; luhn: Card number is not valid"),
                "\(s.screen)")
        #expect(s.screen.last == "credit-card> 4111 9|1  incomplete", "\(s.screen)")
    }

    @Test func aRefusedKeystrokeSaysWhy() throws {
        let sandbox = try Sandbox()
        let s = try Self.session(["credit-card"], keys: "41x\u{04}", in: sandbox)
        #expect(s.screen.last == "credit-card> 41|  incomplete  (refused: Credit Card Number takes digits only)", "\(s.screen)")
        #expect(s.restored)
    }

    @Test func aValidValueAndTheLiveMessageAfterEnter() throws {
        let sandbox = try Sandbox()
        let s = try Self.session(["exp-date"], keys: "1230\r\u{04}", in: sandbox)
        #expect(s.screen.contains("final: valid  \"12/30\""), "\(s.screen)")
        #expect(s.screen.last == "exp-date> 12/30|  valid", "\(s.screen)")
        let invalid = try Self.session(["--accept-all", "exp-date"], keys: "13\u{04}", in: sandbox)
        #expect(invalid.screen.last == "exp-date> 13|  invalid  The card has expired or the date is not valid", "\(invalid.screen)")
    }

    @Test func ctrlCLeavesWithTheTerminalRestored() throws {
        let sandbox = try Sandbox()
        let s = try Self.session(["phone"], keys: "555\u{03}", in: sandbox)
        #expect(s.status == 130, "\(s)")
        #expect(s.restored, "Ctrl-C left the terminal in raw mode: \(s)")
        #expect(s.screen.last == "phone> (555|  incomplete", "\(s.screen)")
    }

    @Test func secureValuesAreShownAsBullets() throws {
        let sandbox = try Sandbox()
        let s = try Self.session(["cvv"], keys: "123\r\u{04}", in: sandbox)
        #expect(s.screen.last == "cvv> •••|  valid", "\(s.screen)")
        #expect(s.screen.contains("final: valid  \"•••\""), "\(s.screen)")
        #expect(!s.screen.joined().contains("123"), "\(s.screen)")
    }

    @Test func linesFromAPipeEachGetAFinalVerdict() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["try", "exp-date"], stdin: "12/30\n1230\n13\n\n")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == """
            valid    "12/30"
            valid    "12/30"
            invalid  "1"                     mask: Use MM/YY, e.g. 09/28; date: The card has expired or the date is not valid
            valid    (empty: no check runs)

            """, "\(result)")
        // A month digit is padded as it is typed: `2` → `02/`, `1/` → `01/`.
        let months = try sandbox.run(["try", "exp-date"], stdin: "2/30\n1/30\n")
        #expect(months.status == 0 && months.stdout == "valid  \"02/30\"\nvalid  \"01/30\"\n", "\(months)")
        let good = try sandbox.run(["try", "credit-card"], stdin: "4111-1111-1111-1111\n")
        #expect(good.status == 0 && good.stdout == "valid  \"4111 1111 1111 1111\"\n", "\(good)")
    }

    @Test func anUnknownTypeIsAUsageError() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["try", "credit-crad"], stdin: "")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("did you mean 'credit-card'"), "\(result)")
    }
}
