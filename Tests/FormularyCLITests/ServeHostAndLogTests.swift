#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `formulary serve` and what clients put in a request that ends up somewhere it should
/// not: a `Host` naming another site (a page on a DNS-rebound name reading the registry),
/// and bytes in a path or method that would reach the operator's terminal through the
/// access log.
@Suite(.serialized) struct ServeHostAndLogTests {
    typealias Server = ServeCommandTests.Server

    /// A public-read server on a database with the sign-up form and one validation run.
    static func server(_ arguments: [String] = []) throws -> (Sandbox, Server) {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.mustRun("validate")
        return (sandbox, try Server(sandbox, arguments: ["--public-read", "--timeout", "5"] + arguments))
    }

    static func get(_ port: UInt16, host: String?, version: String = "HTTP/1.1", path: String = "/v1/runs/1/report") throws
        -> HTTPConnection.Answer {
        let connection = try HTTPConnection(port: port)
        connection.send("GET \(path) \(version)\r\n" + (host.map { "Host: \($0)\r\n" } ?? "") + "\r\n")
        return try connection.readAnswer()
    }

    @Test func onlyTheListenAddressLocalhostAndAllowedNamesAreServed() throws {
        let (sandbox, server) = try Self.server(["--allow-host", "formulary.example", "--allow-host", "Reports.Example"])
        defer { withExtendedLifetime(sandbox) {} }
        let port = server.port
        for host in ["127.0.0.1:\(port)", "127.0.0.1", "localhost:\(port)", "LOCALHOST", "localhost.",
                     "formulary.example", "reports.example:443", "REPORTS.EXAMPLE"] {
            #expect(try Self.get(port, host: host).status == 200, "Host: \(host)")
        }
        for host in ["rebound.attacker.example:\(port)", "127.0.0.2:\(port)", "formulary.example.attacker.example",
                     "localhost.attacker.example", "", "127.0.0.1:80:80"] {
            let answer = try Self.get(port, host: host)
            #expect(answer.status == 421, "Host: \(host): \(answer.status)")
            #expect(answer.text.hasPrefix(#"{"error":{"code":"misdirected_request","#), "\(answer.text)")
            #expect(answer.text.contains("--allow-host"))
        }
        // Every request is checked, also those that need no token.
        #expect(try Self.get(port, host: "rebound.attacker.example", path: "/healthz").status == 421)
        #expect(try Self.get(port, host: "rebound.attacker.example", path: "/").status == 421)
        // HTTP/1.1 requires a Host; HTTP/1.0 may leave it out (no browser does).
        #expect(try Self.get(port, host: nil).status == 400)
        #expect(try Self.get(port, host: nil, version: "HTTP/1.0").status == 200)
        #expect(server.stop() == 0)
    }

    @Test func aBadAllowHostIsAUsageError() throws {
        let sandbox = try Sandbox()
        for name in ["", "a b", "example.org:80", "http://example.org", "*.example.org"] {
            let result = try sandbox.run("serve", "--allow-host", name)
            #expect(result.status == 2, "--allow-host '\(name)': \(result)")
            #expect(result.stderr.contains("--allow-host"), "\(result.stderr)")
        }
    }

    @Test func controlCharactersAndOtherBytesInAPathOrMethodAreLoggedPercentEncoded() throws {
        let (sandbox, server) = try Self.server()
        defer { withExtendedLifetime(sandbox) {} }
        let forged = "2026-01-01T00:00:00.000Z GET /v1/forged 200 0.01 ms admin"
        let connection = try HTTPConnection(port: server.port)
        for raw in ["GET /v1/%1b%5b2J%1b%5b31mred HTTP/1.1", "GET /v1/x%0a\(forged.replacingOccurrences(of: " ", with: "%20")) HTTP/1.1",
                    "GET /v1/%ff%fe%c3%a4%e2%80%ae%25 HTTP/1.1", "G\u{1B}T /v1/types HTTP/1.1"] {
            connection.send(raw + "\r\nHost: 127.0.0.1\r\n\r\n")
            if let answer = try? connection.readAnswer() { #expect(answer.status >= 400, "\(raw)") }
        }
        #expect(server.stop() == 0)
        let log = server.logText
        #expect(!log.utf8.contains(0x1B), "an escape character reached the log")
        let lines = log.split(separator: "\n").dropFirst().dropLast()   // the serving and stopping lines
        #expect(!lines.isEmpty)
        for line in lines {
            #expect(line.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }, "a line with other bytes: \(line)")
            #expect(line.split(separator: " ").count == 7, "not one request: \(line)")
            #expect(!line.hasPrefix("2026-01-01T"), "a forged line: \(line)")
        }
        #expect(log.contains(" GET /v1/%1B%5B2J%1B%5B31mred 404 "), "\(log)")
        #expect(log.contains(" GET /v1/x%0A2026-01-01T00:00:00.000Z%20GET%20/v1/forged%20200%200.01%20ms%20admin 404 "), "\(log)")
        // Bytes that are not UTF-8 are what the router saw: U+FFFD; the rest as UTF-8.
        #expect(log.contains(" GET /v1/%EF%BF%BD%EF%BF%BD%C3%A4%E2%80%AE%25 404 "), "\(log)")
        #expect(log.contains(" G%1BT /v1/types "), "\(log)")
    }
}
