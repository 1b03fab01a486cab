#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `formulary serve` misused on loopback: malformed and oversized requests, a thousand idle
/// connections, clients trickling bytes, a flood of random requests. The server answers
/// each with a 4xx (never a 5xx), keeps serving the well-behaved clients, keeps its memory
/// flat, and never logs a secure value. Loops are bounded; nothing asserts a duration.
@Suite(.serialized) struct ServeAbuseTests {
    typealias Server = ServeCommandTests.Server

    /// A served database with the sign-up form, a `submit` token and an `admin` token.
    struct Fixture {
        let sandbox: Sandbox
        let server: Server
        let submit: String
        let admin: String

        init(timeout: Int = 2) throws {
            sandbox = try Sandbox()
            try sandbox.databaseWithSignupForm()
            submit = try ServeEntriesTests.token(sandbox, "pipeline", "submit")
            admin = try ServeEntriesTests.token(sandbox, "ops", "admin")
            server = try Server(sandbox, arguments: ["--public-read", "--timeout", String(timeout), "--threads", "2"])
        }

        func connect(from source: String? = nil, receiveTimeout: Int = 10) throws -> HTTPConnection {
            try HTTPConnection(port: server.port, from: source, receiveTimeout: receiveTimeout)
        }

        /// The server's resident memory in KiB, from /proc.
        var residentKiB: Int {
            let status = (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func malformedBodiesWrongMethodsAndMediaTypesAreRefusedWith4xx() throws {
        let fixture = try Fixture()
        let connection = try fixture.connect()
        let submit = ["Authorization: Bearer \(fixture.submit)"]
        let admin = ["Authorization: Bearer \(fixture.admin)"]
        let nested = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let cases: [(String, String, [UInt8]?, String?, [String], Int)] = [
            ("POST", "/v1/check", Self.bytes("{oops"), "application/json", [], 400),
            ("POST", "/v1/check", [0xFF, 0xFE, 0x7B], "application/json", [], 400),
            ("POST", "/v1/check", Self.bytes(nested), "application/json", [], 400),
            ("POST", "/v1/edit", Self.bytes("[]"), "application/json", [], 400),
            ("POST", "/v1/forms/signup/judge", Self.bytes(#"{"fields": 3}"#), "application/json", [], 400),
            ("POST", "/v1/forms/signup/entries", Self.bytes(#"{"fields":"#), "application/json", submit, 400),
            ("POST", "/v1/forms/signup/entries", Self.bytes(#"{"fields": {}}"#), "application/json", [], 401),
            ("POST", "/v1/types", Self.bytes("field x\n"), "application/json", admin, 415),
            ("POST", "/v1/types", Self.bytes("field x\n"), "text/plain", submit, 403),
            ("POST", "/v1/check", Self.bytes("{}"), "text/plain", [], 415),
            ("POST", "/v1/check", Self.bytes("{}"), nil, [], 415),
            ("DELETE", "/v1/types", nil, nil, [], 405),
            ("PUT", "/v1/forms/signup/judge", Self.bytes("{}"), "application/json", [], 405),
            ("GET", "/v1/check", nil, nil, [], 405),
            ("GET", "/v1/forms/signup/judge", nil, nil, [], 405),
            ("GET", "/v1/runs/x/report", nil, nil, [], 404),
            ("GET", "/v1/runs/1/report?by=colour", nil, nil, [], 400),
            ("GET", "/v1/audit?limit=many", nil, nil, [], 400),
            ("GET", "/v1/%00/types", nil, nil, [], 404),
        ]
        for (method, path, body, contentType, headers, status) in cases {
            let answer = try connection.exchange(method, path, body: body, contentType: contentType, headers: headers)
            #expect(answer.status == status, "\(method) \(path): \(answer.status) \(answer.text)")
            #expect(answer.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(answer.text.hasPrefix("{\"error\":{\"code\":"), "\(method) \(path)")
        }
        // Requests that are not HTTP: the library refuses them or hangs up; either way the
        // server goes on.
        for raw in ["GARBAGE\r\n\r\n", "GET /healthz HTTP/9.9\r\n\r\n", "BREW /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
                    "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "a", count: 40_000) + "\r\n\r\n",
                    "POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"] {
            let bad = try fixture.connect()
            bad.send(raw)
            if let answer = try? bad.readAnswer() {
                #expect(!(200..<300).contains(answer.status), "\(raw.prefix(40)): \(answer.status)")
            }
        }
        #expect(try fixture.connect().exchange("GET", "/healthz").status == 200)
        #expect(fixture.server.stop() == 0)
    }

    @Test func aTenMebibyteBodyIs413AndTheServerGoesOn() throws {
        let fixture = try Fixture(timeout: 10)
        let connection = try fixture.connect(receiveTimeout: 30)
        let answer = try connection.exchange("POST", "/v1/check", body: [UInt8](repeating: 0x20, count: 10 << 20))
        #expect(answer.status == 413 && answer.text.contains("\"too_large\""))
        #expect(try fixture.connect().exchange("GET", "/healthz").status == 200)
        let check = try fixture.connect().exchange("POST", "/v1/check", body: Self.bytes(#"{"type": "age", "values": ["42"]}"#))
        #expect(check.status == 200)
        #expect(fixture.server.stop() == 0)
    }

    @Test func aThousandIdleConnectionsDoNotShutOutAnotherClient() throws {
        let fixture = try Fixture()
        var idle: [HTTPConnection] = []
        for _ in 0..<1_000 { idle.append(try fixture.connect(receiveTimeout: 10)) }
        // Another address is served at once: one address holds at most 128 connections.
        let fresh = try fixture.connect(from: "127.0.0.2")
        #expect(try fresh.exchange("GET", "/healthz").status == 200)
        #expect(try fresh.exchange("POST", "/v1/check", body: Self.bytes(#"{"type": "age", "values": ["42"]}"#)).status == 200)
        // The idle ones are closed after the timeout (the receive timeout is far longer) …
        #expect(idle[0].isClosedByServer())
        #expect(idle[999].isClosedByServer())
        idle.removeAll()
        // … and the first address is served again.
        var served = false
        for _ in 0..<100 where !served {
            served = (try? fixture.connect().exchange("GET", "/healthz").status) == 200
            if !served { usleep(100_000) }
        }
        #expect(served)
        #expect(fixture.server.stop() == 0)
    }

    @Test func clientsTricklingBytesAreCutOffWhileOthersAreServed() throws {
        let fixture = try Fixture()
        // One sends its headers whole and then its body a byte at a time; the other its
        // headers a byte at a time. Each byte comes well within the idle timeout.
        let body = try fixture.connect()
        body.send("POST /v1/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n")
        let headers = try fixture.connect()
        headers.send("POST /v1/check HTTP/1.1\r\n")
        let rest = Array("Host: 127.0.0.1\r\nContent-Length: 2\r\n\r\n".utf8)
        let other = try fixture.connect()
        var bodyCut = false, headersCut = false, served = 0, rounds = 0
        for index in 0..<150 where !(bodyCut && headersCut) {
            rounds += 1
            if !bodyCut { bodyCut = !body.send([0x20]) || body.isClosedByServer(waiting: false) }
            if !headersCut {
                // The head's deadline passes before its last byte is sent: the server hangs up.
                headersCut = (index < rest.count && !headers.send([rest[index]])) || headers.isClosedByServer(waiting: false)
            }
            if try other.exchange("GET", "/healthz").status == 200 { served += 1 }
            usleep(100_000)
        }
        #expect(bodyCut, "a body trickling in for longer than the timeout is cut off")
        #expect(headersCut, "headers trickling in for longer than the timeout are cut off")
        #expect(served == rounds, "the well-behaved client was served every time")
        #expect(fixture.server.stop() == 0)
    }

    @Test func aHundredThousandRandomRequestsGetNo5xxAndMemoryStaysFlat() throws {
        let fixture = try Fixture(timeout: 10)
        let submit = "Authorization: Bearer \(fixture.submit)"
        let admin = "Authorization: Bearer \(fixture.admin)"
        let templates: [(String, String, String)] = [
            ("POST", "/v1/check", #"{"type": "age(min: 21)", "values": ["20", "42"], "stage": "final"}"#),
            ("POST", "/v1/check", #"{"type": "credit-card", "values": ["4111 1111 1111 1111"], "stage": "live"}"#),
            ("POST", "/v1/edit", #"{"type": "credit-card", "text": "4111", "caret": 4, "replace": {"from": 4, "to": 4, "with": "1"}}"#),
            ("POST", "/v1/forms/signup/judge", #"{"fields": {"name": "Ada", "email": "ada@example.com", "cvv": "123"}, "stage": "final"}"#),
            ("POST", "/v1/forms/signup/entries", #"{"fields": {"name": "Ada", "email": "ada@example.com", "age": "30"}}"#),
            ("GET", "/v1/types/email", ""), ("GET", "/v1/forms", ""), ("GET", "/v1/forms/signup", ""),
            ("GET", "/v1/runs", ""), ("GET", "/v1/runs/1/report?by=field&format=csv", ""), ("GET", "/v1/audit?limit=3", ""),
        ]
        let clients = 4
        let perClient = Int(ProcessInfo.processInfo.environment["FORMULARY_FLOOD_PER_CLIENT"] ?? "") ?? 25_000
        let failures = Failures()
        // A warm-up first, so that what is measured after is growth, not first use.
        let port = fixture.server.port, pid = fixture.server.process.processIdentifier
        /// One random request: a template, its body replaced by random bytes or mutated,
        /// sometimes with another method or a longer path.
        @Sendable func randomRequest(_ random: inout SplitMix64) -> (method: String, path: String, bytes: [UInt8]) {
            let (method, path, template) = templates[Int(random.next() % UInt64(templates.count))]
            var body = Array(template.utf8)
            switch random.next() % 8 {
            case 0: body = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            case 1, 2, 3:
                for _ in 0...(random.next() % 4) where !body.isEmpty {
                    let at = Int(random.next() % UInt64(body.count))
                    switch random.next() % 3 {
                    case 0: body[at] = UInt8(truncatingIfNeeded: random.next())
                    case 1: body.remove(at: at)
                    default:
                        let syntax = Array("{}[]\",:0\\".utf8)
                        body.insert(syntax[Int(random.next() % UInt64(syntax.count))], at: at)
                    }
                }
            default: break
            }
            var headers: [String] = []
            var (chosenMethod, chosenPath) = (method, path)
            if path.hasSuffix("/entries") {
                // Entries are written to disk (and each makes a new registry snapshot): a
                // small share; the others judge the same body.
                if random.next() % 100 == 0 { headers.append(submit) } else { chosenPath = "/v1/forms/signup/judge" }
            }
            if random.next() % 16 == 0 { chosenMethod = ["GET", "POST", "PUT", "DELETE", "PATCH"][Int(random.next() % 5)] }
            if random.next() % 16 == 0 { chosenPath += ["/x", "?by=\(random.next())", "/../types", "%ff"][Int(random.next() % 4)] }
            if random.next() % 5_000 == 0 { (chosenMethod, chosenPath, headers) = ("POST", "/v1/types", [admin]) }
            let bytes = HTTPConnection.request(chosenMethod, chosenPath, body: chosenMethod == "GET" ? nil : body,
                contentType: chosenPath == "/v1/types" ? "text/plain" : "application/json", headers: headers)
            return (chosenMethod, chosenPath, bytes)
        }
        /// `count` random requests on one keep-alive connection, sent 16 at a time
        /// (pipelined: the answers come back in order), every answer checked.
        @Sendable func flood(client: Int, count: Int, seed: UInt64) {
            var random = SplitMix64(seed: seed &+ UInt64(client))
            var connection: HTTPConnection?
            var sent = 0
            while sent < count {
                let batch = (0..<min(16, count - sent)).map { _ in randomRequest(&random) }
                sent += batch.count
                do {
                    if connection == nil { connection = try HTTPConnection(port: port, receiveTimeout: 30) }
                    guard connection!.send(batch.flatMap(\.bytes)) else { throw HTTPConnection.Failure(description: "send") }
                    for request in batch {
                        let answer = try connection!.readAnswer()
                        if answer.status >= 500 || answer.status < 200 {
                            failures.add("\(request.method) \(request.path): \(answer.status) \(answer.text.prefix(200))")
                        } else if answer.status < 300, answer.headers["content-type"]?.hasPrefix("application/json") == true,
                                  (try? JSONSerialization.jsonObject(with: Data(answer.body))) == nil {
                            failures.add("\(request.method) \(request.path): 2xx that is not JSON: \(answer.text.prefix(200))")
                        }
                    }
                } catch {
                    // A connection the server hung up on is opened again; the server must
                    // still be there.
                    connection = nil
                    if kill(pid, 0) != 0 { failures.add("the server is gone: \(error)") }
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: clients) { flood(client: $0, count: 500, seed: 7) }
        let before = fixture.residentKiB
        DispatchQueue.concurrentPerform(iterations: clients) { flood(client: $0, count: perClient, seed: 42) }
        let after = fixture.residentKiB
        #expect(failures.list.isEmpty, "\(failures.list.count) bad answers, first: \(failures.list.prefix(5))")
        #expect(before > 0 && after > 0)
        #expect(after < before + 64 * 1024, "resident memory grew from \(before) KiB to \(after) KiB")
        #expect(try fixture.connect().exchange("GET", "/healthz").status == 200)
        #expect(fixture.server.stop() == 0)
    }

    @Test func noSecureValueReachesTheAccessLog() throws {
        let fixture = try Fixture()
        let secret = "8317"
        let connection = try fixture.connect()
        let posts: [(String, String, [String])] = [
            ("/v1/check", #"{"type": "cvv", "values": ["\#(secret)"]}"#, []),
            ("/v1/edit", #"{"type": "cvv", "text": "831", "caret": 3, "replace": {"from": 3, "to": 3, "with": "7"}}"#, []),
            ("/v1/forms/signup/judge", #"{"fields": {"cvv": "\#(secret)"}}"#, []),
            ("/v1/forms/signup/entries", #"{"fields": {"name": "Ada", "cvv": "\#(secret)"}}"#, ["Authorization: Bearer \(fixture.submit)"]),
            ("/v1/forms/signup/entries", #"{"fields": {"name": "Ada", "cvv": "\#(secret)"#, ["Authorization: Bearer \(fixture.submit)"]),
        ]
        for (path, body, headers) in posts {
            let answer = try connection.exchange("POST", path, body: Self.bytes(body), headers: headers)
            #expect(answer.status < 500)
            if path != "/v1/edit" { #expect(!answer.text.contains(secret), "\(path): \(answer.text)") }
        }
        _ = try connection.exchange("GET", "/v1/audit?since=\(secret)")
        #expect(fixture.server.stop() == 0)
        let log = fixture.server.logText
        #expect(log.contains("POST /v1/forms/signup/entries 201"))
        #expect(!log.contains(secret), "the access log holds a secure value")
        #expect(!log.contains("831"))
    }
}

/// Bad answers seen by the flood's threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) {
        lock.lock()
        defer { lock.unlock() }
        if items.count < 100 { items.append(item) }
    }

    var list: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// A small seeded generator, so that a failing flood can be replayed.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
