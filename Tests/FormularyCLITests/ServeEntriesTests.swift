import Foundation
import Testing

/// `formulary serve` taking entries and definitions from clients: an entry posted lands
/// where an imported one would (`entries show`, `history`, the audit log), reports and
/// runs come back as the commands print them, and no secure value reaches an answer or
/// the log.
@Suite(.serialized) struct ServeEntriesTests {
    typealias Server = ServeCommandTests.Server

    static func token(_ sandbox: Sandbox, _ name: String, _ scope: String) throws -> String {
        let made = try sandbox.mustRun("--format", "json", "tokens", "add", name, "--scope", scope)
        let object = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
        return try #require(object?["token"] as? String)
    }

    @Test func anEntryPostedLandsInEntriesShowHistoryAndTheAuditLog() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        let token = try Self.token(sandbox, "pipeline", "submit")
        let server = try Server(sandbox)
        let secret = "987"
        let posted = try ServeCommandTests.request(server.port, "POST", "/v1/forms/signup/entries",
            body: #"{"key": "ada", "fields": {"name": "Ada", "email": "ada@example.com", "age": "17", "cvv": "\#(secret)"}}"#,
            headers: ["Authorization: Bearer \(token)"])
        #expect(posted.status == 201, "\(posted)")
        #expect(posted.body == "{\"id\":1,\"verdict\":\"invalid\"}\n")
        let duplicate = try ServeCommandTests.request(server.port, "POST", "/v1/forms/signup/entries",
            body: #"{"key": "ada", "fields": {"name": "Ada"}}"#, headers: ["Authorization: Bearer \(token)"])
        #expect(duplicate.status == 409 && duplicate.body.contains("\"code\":\"conflict\""))

        let entry = try sandbox.entry(1)
        #expect(entry["key"] as? String == "ada" && entry["form"] as? String == "signup")
        let shown = try sandbox.mustRun("entries", "show", "1")
        #expect(shown.stdout.contains("cvv    \"•••\"") && !shown.stdout.contains(secret), "\(shown)")
        let audit = try sandbox.auditRecords().last
        #expect(audit?["action"] as? String == "import" && audit?["actor"] as? String == "pipeline")
        #expect(try sandbox.run("validate").status == 1)
        let history = try sandbox.mustRun("history", "1")
        #expect(history.stdout.contains("invalid") && history.stdout.contains("range"), "\(history)")
        #expect(try sandbox.run("audit", "verify").status == 0)

        // The run and its report over HTTP are what the commands print.
        let runs = try ServeCommandTests.request(server.port, "GET", "/v1/runs")
        #expect(runs.body == (try sandbox.mustRun("--format", "json", "runs", "list").stdout))
        for format in ["json", "csv"] {
            let report = try ServeCommandTests.request(server.port, "GET", "/v1/runs/1/report?by=field&format=\(format)")
            #expect(report.status == 200)
            #expect(report.body == (try sandbox.mustRun("report", "--run", "1", "--by", "field", "--format", format).stdout))
            #expect(!report.body.contains(secret))
        }
        // The report names where the entry came from: the token that posted it.
        let byEntry = try ServeCommandTests.request(server.port, "GET", "/v1/runs/1/report?by=entry")
        #expect(byEntry.body.contains("\"source\":\"http:pipeline\""), "\(byEntry.body)")
        let html = try ServeCommandTests.request(server.port, "GET", "/v1/runs/1/report?by=entry&format=html")
        try sandbox.mustRun("report", "--run", "1", "--by", "entry", "--format", "html", "--output", "r.html")
        #expect(html.body == (try String(contentsOfFile: sandbox.path("r.html"), encoding: .utf8)))
        #expect(try ServeCommandTests.request(server.port, "GET", "/v1/runs/7/report").status == 404)

        #expect(server.stop() == 0)
        let log = server.logText
        #expect(log.contains("POST /v1/forms/signup/entries 201") && log.contains("POST /v1/forms/signup/entries 409"))
        #expect(log.contains(" pipeline\n"))
        #expect(!log.contains(secret), "no value reaches the access log")
    }

    @Test func anAdminTokenAddsATypeTheNextRequestServes() throws {
        let sandbox = try Sandbox()
        try sandbox.initDatabase()
        let admin = try Self.token(sandbox, "ops", "admin")
        let server = try Server(sandbox)
        let source = #"field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n"#
        // The helper sends JSON; a plugin file must come as text.
        let refused = try ServeCommandTests.request(server.port, "POST", "/v1/types", body: source,
                                                    headers: ["Authorization: Bearer \(admin)"])
        #expect(refused.status == 415)
        let added = try ServeCommandTests.request(server.port, "POST", "/v1/types",
            body: "field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n",
            headers: ["Authorization: Bearer \(admin)"], contentType: "text/plain")
        #expect(added.status == 201, "\(added)")
        #expect(try ServeCommandTests.request(server.port, "GET", "/v1/types/zip5").status == 200)
        let history = try sandbox.mustRun("types", "history", "zip5")
        #expect(history.stdout.contains("ops"), "\(history)")
        #expect(server.stop() == 0)
    }
}
