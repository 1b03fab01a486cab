#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `formulary serve` on the edges of HTTP, over loopback with raw bytes: requests framed
/// two ways at once (a request smuggled in a body), heads too large, errors the server
/// itself or the library makes, `HEAD`, `405` and the headers every answer carries.
@Suite(.serialized) struct ServeProtocolTests {
    typealias Fixture = ServeAbuseTests.Fixture

    /// A request to `/v1/audit`, hidden in the body of a request before it.
    static let smuggled = "GET /v1/audit HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test(arguments: [
        "Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)\r\n",
        "Content-Length: \(smuggled.utf8.count + 5)\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\nContent-Length: \(smuggled.utf8.count + 5)\r\n",
        "Transfer-Encoding: gzip, chunked\r\n",
    ])
    func aRequestFramedTwoWaysIs400AndWhatItHidesIsNeverAnswered(framing: String) throws {
        let fixture = try Fixture()
        let connection = try fixture.connect(receiveTimeout: 3)
        let body = framing.contains("chunked") ? "0\r\n\r\n" + Self.smuggled : Self.smuggled
        connection.send("POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" + framing + "\r\n" + body)
        let answer = try connection.readAnswer()
        #expect(answer.status == 400, "\(answer.status) \(answer.text)")
        #expect(answer.text.hasPrefix(#"{"error":{"code":"bad_request","#), "\(answer.text)")
        #expect(answer.headers["connection"]?.lowercased() == "close")
        let rest = String(decoding: connection.readRest(), as: UTF8.self)
        #expect(!rest.contains("HTTP/1."), "the request hidden in the body was answered: \(rest.prefix(200))")
        #expect(fixture.server.stop() == 0)
        #expect(!fixture.server.logText.contains("/v1/audit"), "the hidden request reached the server")
    }

    @Test func aRepeatedContentLengthOfOneValueIsServed() throws {
        let fixture = try Fixture()
        let connection = try fixture.connect()
        let body = #"{"type": "age", "values": ["42"]}"#
        connection.send("POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        #expect(try connection.readAnswer().status == 200)
        #expect(try connection.exchange("GET", "/healthz").status == 200, "the connection is kept")
        #expect(fixture.server.stop() == 0)
    }

    @Test func aHeadOverSixteenKibibytesIsAJSON431() throws {
        let fixture = try Fixture()
        let connection = try fixture.connect()
        connection.send("GET /v1/types HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + String(repeating: "a", count: 20_000) + "\r\n\r\n")
        let answer = try connection.readAnswer()
        #expect(answer.status == 431)
        #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(answer.text.hasPrefix(#"{"error":{"code":"headers_too_large","#), "\(answer.text)")
        // Just under the limit is served.
        let fits = try fixture.connect().exchange("GET", "/healthz", headers: ["X-Big: " + String(repeating: "a", count: 15_000)])
        #expect(fits.status == 200)
        #expect(fixture.server.stop() == 0)
    }

    @Test func aDatabaseFailureIsA5xxThatNamesNoInternals() throws {
        let fixture = try Fixture()
        #expect(try fixture.connect().exchange("GET", "/v1/runs").status == 200)
        // The runs table goes away under the server: its queries fail from now on.
        let database = fixture.sandbox.root.appendingPathComponent("formulary.db").path
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [database, "PRAGMA foreign_keys=OFF; DROP TABLE run_results; DROP TABLE runs;"]
        try sqlite.run()
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        let answer = try fixture.connect().exchange("GET", "/v1/runs")
        #expect((500..<600).contains(answer.status), "\(answer.status) \(answer.text)")
        #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
        for word in ["SELECT", "select", "runs", "SQLite", "sqlite", "formulary.db", "/", "error 1"] {
            let said = String(answer.text.dropFirst(#"{"error":{"code":"#.count))
            #expect(!said.contains(word), "the answer names '\(word)': \(answer.text)")
        }
        #expect(fixture.server.stop() == 0)
        // The operator's log has the detail, on a line of its own.
        #expect(fixture.server.logText.contains("GET /v1/runs \(answer.status)"))
        #expect(fixture.server.logText.contains("no such table"), "\(fixture.server.logText)")
    }

    @Test func headAnswersEveryGetRouteWithItsStatusAndHeadersAndNoBody() throws {
        let fixture = try Fixture()
        let connection = try fixture.connect()
        for path in ["/healthz", "/v1/types", "/v1/types/email", "/v1/types/nothing", "/v1/forms", "/v1/forms/signup",
                     "/v1/export", "/v1/runs", "/v1/runs/1/report?format=html", "/v1/audit?limit=2", "/", "/assets/formulary.css"] {
            let get = try connection.exchange("GET", path)
            #expect(connection.send(HTTPConnection.request("HEAD", path)))
            let head = try connection.readAnswer(bodyless: true)
            #expect(head.status == get.status, "HEAD \(path): \(head.status), GET: \(get.status)")
            var (getHeaders, headHeaders) = (get.headers, head.headers)
            getHeaders["date"] = nil
            headHeaders["date"] = nil
            #expect(headHeaders == getHeaders, "HEAD \(path)")
            // No body came: the next answer on the connection starts right away.
            #expect(try connection.exchange("GET", "/healthz").text == "{\"status\":\"ok\"}\n", "HEAD \(path) sent a body")
        }
        #expect(fixture.server.stop() == 0)
        #expect(fixture.server.logText.contains("HEAD /v1/export 200"))
    }

    @Test func a405SaysWhichMethodsThePathTakes() throws {
        let fixture = try Fixture()
        let connection = try fixture.connect()
        for (method, path, allowed) in [("DELETE", "/v1/types", "GET, HEAD, POST"), ("GET", "/v1/check", "POST"),
                                        ("PUT", "/v1/runs/1/report", "GET, HEAD"), ("POST", "/healthz", "GET, HEAD"),
                                        ("POST", "/", "GET, HEAD"), ("BREW", "/v1/forms/signup/judge", "POST")] {
            let answer = try connection.exchange(method, path, body: method == "GET" ? nil : [])
            #expect(answer.status == 405, "\(method) \(path): \(answer.status)")
            #expect(answer.headers["allow"] == allowed, "\(method) \(path)")
            #expect(answer.text.hasPrefix(#"{"error":{"code":"method_not_allowed","#))
        }
        #expect(fixture.server.stop() == 0)
    }

    @Test func theHTMLReportForbidsScriptsAndNoAnswerIsSniffed() throws {
        let fixture = try Fixture()
        try fixture.sandbox.mustRun("validate")
        let connection = try fixture.connect()
        let report = try connection.exchange("GET", "/v1/runs/1/report?format=html")
        #expect(report.status == 200)
        let policy = report.headers["content-security-policy"] ?? ""
        #expect(policy.contains("default-src 'none'") && policy.contains("sandbox") && !policy.contains("script-src"), "\(policy)")
        #expect(policy.contains("frame-ancestors 'none'"), "\(policy)")
        for path in ["/v1/runs/1/report?format=html", "/v1/runs/1/report?format=csv", "/v1/types", "/nowhere", "/"] {
            #expect(try connection.exchange("GET", path).headers["x-content-type-options"] == "nosniff", "\(path)")
        }
        #expect(fixture.server.stop() == 0)
    }
}
