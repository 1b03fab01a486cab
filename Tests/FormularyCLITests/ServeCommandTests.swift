#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `formulary serve` as a process on loopback: it answers over real sockets what the API
/// answers as a function, sees a type another process adds, logs each request without
/// values, and stops cleanly on SIGTERM.
@Suite(.serialized) struct ServeCommandTests {
    /// A running `formulary serve --listen 127.0.0.1:0` in a sandbox, and its port.
    final class Server {
        let process = Process()
        let log: URL
        let port: UInt16

        init(_ sandbox: Sandbox, arguments: [String] = ["--public-read"]) throws {
            log = sandbox.root.appendingPathComponent("serve.log")
            FileManager.default.createFile(atPath: log.path, contents: nil)
            process.executableURL = URL(fileURLWithPath: try FormularyProcess.executable.get())
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
            process.environment = sandbox.environment
            process.currentDirectoryURL = sandbox.root
            process.standardError = try FileHandle(forWritingTo: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // The first line says where it listens; polled, not slept on: a bounded wait.
            var found: UInt16?
            for _ in 0..<600 where found == nil {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: "http://127.0.0.1:") {
                    found = UInt16(text[range.upperBound...].prefix { $0.isNumber })
                }
                if found == nil { usleep(50_000) }
            }
            guard let found else {
                process.terminate()
                throw ServeError(message: "the server did not say where it listens: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// Sends SIGTERM and waits for the exit status.
        func stop() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.terminationStatus
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    struct ServeError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// One HTTP/1.1 exchange over a fresh loopback connection (`Connection: close`): the
    /// status, and the body.
    static func request(_ port: UInt16, _ method: String, _ path: String, body: String? = nil,
                        headers: [String] = [], contentType: String = "application/json") throws -> (status: Int, body: String) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServeError(message: "socket: \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw ServeError(message: "connect: \(errno)") }
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw ServeError(message: "send: \(errno)") }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            answer += chunk[..<n]
        }
        let whole = String(decoding: answer, as: UTF8.self)
        guard let statusLine = whole.split(separator: "\r\n").first,
              let status = Int(statusLine.split(separator: " ").dropFirst().first ?? ""),
              let split = whole.range(of: "\r\n\r\n") else {
            throw ServeError(message: "not an HTTP answer: \(whole.prefix(200))")
        }
        return (status, String(whole[split.upperBound...]))
    }

    @Test(arguments: TestBackend.all)
    func answersOverLoopbackSeesOtherProcessesAndStopsOnSIGTERM(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.mustRun("init")
        let server = try Server(sandbox)

        #expect(try Self.request(server.port, "GET", "/healthz") == (200, "{\"status\":\"ok\"}\n"))
        let check = try Self.request(server.port, "POST", "/v1/check",
                                     body: #"{"type": "credit-card", "values": ["4111 1111 1111 1112"]}"#)
        let cli = try sandbox.run("--format", "json", "check", "credit-card", "4111 1111 1111 1112")
        #expect(check.status == 200)
        #expect(check.body == "{\"results\":[" + cli.stdout.trimmingCharacters(in: .newlines) + "]}\n")

        // A type another process adds is served on the next request.
        #expect(try Self.request(server.port, "GET", "/v1/types/zip5").status == 404)
        _ = try sandbox.write("zip5.field", "field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n")
        try sandbox.mustRun("types", "add", "zip5.field")
        #expect(try Self.request(server.port, "GET", "/v1/types/zip5").status == 200)

        #expect(try Self.request(server.port, "GET", "/nowhere").status == 404)
        #expect(try Self.request(server.port, "POST", "/v1/check", body: "{oops").status == 400)

        #expect(server.stop() == 0)
        let log = server.logText
        #expect(log.contains("POST /v1/check 200") && log.contains("GET /nowhere 404") && log.contains("Stopped (SIGTERM)."))
        // Not on the line that names the port the server chose: "4111" can be part of it.
        let requests = log.split(separator: "\n").filter { !$0.contains("http://127.0.0.1:") }.joined(separator: "\n")
        #expect(!requests.contains("4111") && !requests.contains("1112"), "no value reaches the access log")
    }

    @Test func aBodyOverOneMebibyteIsRefusedAndTheServerGoesOn() throws {
        let sandbox = try Sandbox()
        let server = try Server(sandbox)
        let big = String(repeating: " ", count: 2 << 20)
        #expect(try Self.request(server.port, "POST", "/v1/check", body: big).status == 413)
        #expect(try Self.request(server.port, "GET", "/healthz").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func aBadListenAddressIsAUsageError() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("serve", "--listen", "localhost")
        #expect(result.status == 2)
        #expect(result.stderr.contains("--listen 'localhost' is not HOST:PORT"))
        let notIPv4 = try sandbox.run("serve", "--listen", "example.org:80")
        #expect(notIPv4.status == 2 && notIPv4.stderr.contains("is not an IPv4 address"))
    }
}
