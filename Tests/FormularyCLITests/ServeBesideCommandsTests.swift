import Foundation
import Synchronization
import Testing

/// `formulary serve` on an SQLite file with the command line used beside it, as the docs'
/// normal setup has it: entries posted while `import` and `validate` write and `audit head` reads, a token
/// revoked and a type added from the command line. Every acknowledged entry is stored, no
/// request fails, the server does not crash, and what the commands changed is served within
/// a second.
///
/// This is the failure of a server that lost its SQLite locks: POSIX `fcntl` locks belong to
/// the process, so a descriptor of the database (or of its `-shm`) opened and closed beside
/// SQLite's drops SQLite's locks; a command then believed it was alone, reset the wal-index
/// and removed `-wal` and `-shm` under the server (lost commits, SIGBUS, "disk I/O error"),
/// and the server's view of the wal-index never moved again (a revoked token kept working).
@Suite(.serialized) struct ServeBesideCommandsTests {
    typealias Server = ServeCommandTests.Server

    /// Asks until `answered` holds, at most `seconds`; how long it took, or nil.
    static func secondsUntil(_ seconds: Double, _ answered: () throws -> Bool) rethrows -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < seconds {
            if try answered() { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }

    @Test func entriesPostedBesideImportsAndReadersAreAllStoredAndChangesAreServed() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let submitter = try ServeEntriesTests.token(sandbox, "pipeline", "submit")
        let reader = try ServeEntriesTests.token(sandbox, "dashboard", "read")
        let rounds = 8
        for round in 0..<rounds {
            try sandbox.write("batch-\(round).csv", ConcurrencyTests.signups(40, from: round * 40))
        }
        try sandbox.write("zip5.field", "field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n")
        let server = try Server(sandbox, arguments: [])
        let port = server.port

        // One client posts entries for as long as the commands run.
        let acknowledged = Mutex<[(id: Int, key: String)]>([])
        let failures = Mutex<[String]>([])
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        let poster = Thread {
            var n = 0
            while !stop.load(ordering: .relaxed) && n < 2_000 {
                n += 1
                let key = "http-\(n)"
                let body = #"{"key": "\#(key)", "fields": {"name": "Poster \#(n)", "email": "h\#(n)@example.com", "age": "30"}}"#
                do {
                    let answer = try ServeCommandTests.request(port, "POST", "/v1/forms/signup/entries", body: body,
                                                               headers: ["Authorization: Bearer \(submitter)"])
                    if answer.status == 201,
                       let object = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any],
                       let id = object["id"] as? Int {
                        acknowledged.withLock { $0.append((id, key)) }
                    } else {
                        failures.withLock { $0.append("\(key): \(answer.status) \(answer.body)") }
                    }
                } catch {
                    failures.withLock { $0.append("\(key): \(error)") }
                }
            }
            finished.signal()
        }
        poster.start()

        var revokedAfter: Double?, servedAfter: Double?
        for round in 0..<rounds {
            let imported = try sandbox.run("import", "--form", "signup", "batch-\(round).csv")
            #expect(imported.status == 0 || imported.status == 1, "\(imported)")
            let head = try sandbox.run("audit", "head")
            #expect(head.status == 0, "\(head)")
            if round % 3 == 1 {
                let validated = try sandbox.run("validate")
                #expect(validated.status == 0 || validated.status == 1, "\(validated)")
            }
            if round == 3 {
                // Checked first: the token works, so that a refusal below is the revocation's.
                #expect(try ServeCommandTests.request(port, "GET", "/v1/types", headers: ["Authorization: Bearer \(reader)"]).status == 200)
                try sandbox.mustRun("tokens", "revoke", "dashboard")
                revokedAfter = try Self.secondsUntil(1) {
                    try ServeCommandTests.request(port, "GET", "/v1/types", headers: ["Authorization: Bearer \(reader)"]).status == 401
                }
            }
            if round == 5 {
                try sandbox.mustRun("types", "add", "zip5.field")
                servedAfter = try Self.secondsUntil(1) {
                    try ServeCommandTests.request(port, "GET", "/v1/types/zip5", headers: ["Authorization: Bearer \(submitter)"]).status != 404
                }
            }
        }
        stop.store(true, ordering: .relaxed)
        finished.wait()

        #expect(revokedAfter != nil, "a token revoked by the command line was still accepted a second later")
        #expect(servedAfter != nil, "a type added by the command line was not served a second later")
        let failed = failures.withLock { $0 }
        #expect(failed.count == 0, "requests that failed, the first of them: \(failed.prefix(3))")
        // A crash (SIGBUS) ends the process by a signal, not with status 0 on SIGTERM.
        #expect(server.stop() == 0, "\(server.logText.suffix(2_000))")

        let posted = acknowledged.withLock { $0 }
        #expect(posted.count > 20, "the poster got few answers: \(posted.count)")
        let stored = Dictionary(uniqueKeysWithValues: try sandbox.query("SELECT id, key FROM entries WHERE key LIKE 'http-%'")
            .map { (Int($0[0] ?? "") ?? -1, $0[1] ?? "") })
        let lost = posted.filter { stored[$0.id] != $0.key }
        #expect(lost.isEmpty, "\(lost.count) of \(posted.count) acknowledged entries are not stored: \(lost.prefix(5))")
        #expect(try sandbox.query("PRAGMA integrity_check").first?.first == "ok")
        #expect(try sandbox.query("SELECT count(*) FROM entries WHERE key IS NULL").first?.first == String(rounds * 40))
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
    }
}
