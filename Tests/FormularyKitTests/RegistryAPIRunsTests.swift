import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit
@testable import FormularyServer

/// The runs, reports and audit log over HTTP are the services' output byte for byte, and
/// the admin endpoints admit a definition exactly as `types add` and `forms add` do.
struct RegistryAPIRunsTests {
    let folder: String
    let settings: WorkspaceSettings
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-api-runs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Data(RegistryAPIFormsTests.form.utf8).write(to: URL(fileURLWithPath: folder + "/plugins/signup.form"))
        let store = try Store(path: folder + "/f.db")
        try store.migrate()
        settings = WorkspaceSettings(databasePath: folder + "/f.db",
                                     pluginFolders: [PluginFolder(path: folder + "/plugins", origin: .option)], actor: "ada")
    }

    var workspace: Workspace { Workspace(settings: settings) }

    func api() -> RegistryAPI {
        let today = self.today
        return RegistryAPI(settings: settings, publicRead: true) { today }
    }

    static func get(_ path: String, _ query: [String: String] = [:]) -> HTTPRequest {
        HTTPRequest(method: "GET", path: path, query: query)
    }

    static func postText(_ path: String, _ body: String, token: String, contentType: String = "text/plain; charset=utf-8") -> HTTPRequest {
        HTTPRequest(method: "POST", path: path, headers: ["Content-Type": contentType, "Authorization": "Bearer \(token)"],
                    body: Array(body.utf8))
    }

    /// Two entries, one failing, and one validation run.
    func validatedRun() throws -> Int64 {
        let token = try TokenService(workspace: workspace).add(name: "pipeline", scope: .submit).token
        for body in [#"{"fields": {"name": "Ada", "email": "ada@example.com", "email-again": "ada@example.com", "cvv": "987"}}"#,
                     #"{"fields": {"name": "Bob", "email": "bob@example", "age": "12", "cvv": "12x"}}"#] {
            let response = api().respond(to: HTTPRequest(method: "POST", path: "/v1/forms/signup/entries",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token)"], body: Array(body.utf8)))
            #expect(response.status == 201)
        }
        return try ValidationService(workspace: workspace).run(forms: nil, today: today).run.id
    }

    func rendered(_ run: Int64, _ grouping: ReportGrouping, _ format: ReportService.Format) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try ReportService(workspace: workspace).render(run: run, form: nil, by: grouping, format: format,
                                                       to: ReportSink { bytes += $0 })
        return bytes
    }

    @Test func runsAndReportsAreWhatTheCommandsPrint() throws {
        let api = api()
        #expect(String(decoding: api.respond(to: Self.get("/v1/runs")).body, as: UTF8.self) == "[]\n")
        let run = try validatedRun()
        let runs = api.respond(to: Self.get("/v1/runs"))
        try #expect(runs.status == 200 && runs.body == (RunsService(workspace: workspace).list(form: nil, limit: 0).jsonDocument))

        let plain = api.respond(to: Self.get("/v1/runs/\(run)/report"))
        #expect(plain.status == 200 && plain.header("Content-Type") == "application/json; charset=utf-8")
        try #expect(plain.body == (rendered(run, .rule, .json)))
        for (by, grouping) in [("rule", ReportGrouping.rule), ("field", .field), ("type", .type), ("entry", .entry)] {
            for (format, rendering, media) in [("json", ReportService.Format.json, "application/json"),
                                                ("csv", .csv, "text/csv"), ("html", .html, "text/html")] {
                let response = api.respond(to: Self.get("/v1/runs/\(run)/report", ["by": by, "format": format]))
                #expect(response.status == 200 && response.header("Content-Type") == "\(media); charset=utf-8")
                try #expect(response.body == (rendered(run, grouping, rendering)), "by=\(by) format=\(format)")
            }
        }
        // The secure value of the failing entry is masked in every format.
        let csv = String(decoding: api.respond(to: Self.get("/v1/runs/\(run)/report", ["format": "csv", "by": "entry"])).body, as: UTF8.self)
        #expect(csv.contains("•••") && !csv.contains("12x"))
    }

    @Test(arguments: [
        ("/v1/runs/99/report", [String: String](), 404),
        ("/v1/runs/abc/report", [:], 404),
        ("/v1/runs/1/report", ["by": "colour"], 400),
        ("/v1/runs/1/report", ["format": "pdf"], 400),
        ("/v1/audit", ["since": "yesterday"], 400),
        ("/v1/audit", ["limit": "-1"], 400),
    ])
    func badRunsAndQueriesAreRefused(path: String, query: [String: String], status: Int) throws {
        _ = try validatedRun()
        let response = api().respond(to: Self.get(path, query))
        #expect(response.status == status, "\(String(decoding: response.body, as: UTF8.self))")
    }

    @Test func theAuditLogIsWhatAuditPrints() throws {
        _ = try validatedRun()
        let service = AuditService(workspace: workspace)
        let all = api().respond(to: Self.get("/v1/audit"))
        try #expect(all.status == 200 && all.body == (service.records(since: nil, actor: nil).jsonDocument))
        let two = api().respond(to: Self.get("/v1/audit", ["limit": "2", "since": "2000-01-01"]))
        try #expect(two.body == (service.records(since: "2000-01-01", actor: nil, limit: 2).jsonDocument))
        try #expect(JSONParser().parse(two.body).arrayValue?.count == 2)
        try #expect(JSONParser().parse(api().respond(to: Self.get("/v1/audit", ["since": "2999-01-01"])).body) == .array([]))
    }

    @Test func anAdminAddsATypeAsTypesAddDoes() throws {
        let admin = try TokenService(workspace: workspace).add(name: "ops", scope: .admin).token
        let submitter = try TokenService(workspace: workspace).add(name: "pipeline", scope: .submit).token
        let api = api()
        let source = "field zip5\nlabel \"ZIP\"\npattern /[0-9]{5}/\naccept \"12345\"\nreject \"1234\" pattern\n"
        #expect(api.respond(to: Self.postText("/v1/types", source, token: submitter)).status == 403)
        #expect(api.respond(to: Self.postText("/v1/types", source, token: admin, contentType: "application/json")).status == 415)

        let added = api.respond(to: Self.postText("/v1/types", source, token: admin))
        #expect(added.status == 201, "\(String(decoding: added.body, as: UTF8.self))")
        let answer = try JSONParser().parse(added.body)
        #expect(answer["name"]?.stringValue == "zip5" && answer["status"]?.stringValue == "added")
        let versions = try Store(path: settings.databasePath).currentVersions(.type)
        #expect(versions.map(\.name) == ["zip5"] && answer["version"]?.stringValue == versions.first?.hash)
        let audit = try #require(try Store(path: settings.databasePath).auditRecords().last)
        #expect(audit.action == "types.add" && audit.actor == "ops" && audit.subject == "zip5")
        // The next request sees it; the same source again changes nothing.
        #expect(api.respond(to: Self.get("/v1/types/zip5")).status == 200)
        let again = api.respond(to: Self.postText("/v1/types", source, token: admin))
        try #expect(again.status == 200 && (JSONParser().parse(again.body)["status"]?.stringValue) == "unchanged")
    }

    @Test func aDefinitionWithProblemsIs422WithItsDiagnostics() throws {
        let admin = try TokenService(workspace: workspace).add(name: "ops", scope: .admin).token
        let api = api()
        let lint = api.respond(to: Self.postText("/v1/types", "field broken\nlength\n", token: admin))
        #expect(lint.status == 422)
        let error = try JSONParser().parse(lint.body)["error"]
        #expect(error?["code"]?.stringValue == "unprocessable")
        let diagnostic = try #require(error?["diagnostics"]?[0])
        #expect(diagnostic["file"]?.stringValue == "request.field" && diagnostic["line"]?.intValue == 2)
        #expect(diagnostic["severity"]?.stringValue == "error")

        let selfTest = api.respond(to: Self.postText("/v1/types", "field zip6\npattern /[0-9]{5}/\naccept \"1234\"\n", token: admin))
        #expect(selfTest.status == 422)
        try #expect(JSONParser().parse(selfTest.body)["error"]?["failures"]?[0]?.stringValue?.contains("self-test failed") == true)
        #expect(api.respond(to: Self.postText("/v1/types", "form f\nfield a name\n", token: admin)).status == 422)
        #expect(api.respond(to: Self.postText("/v1/forms", "", token: admin)).status == 400)
        try #expect(Store(path: settings.databasePath).currentVersions(.type).isEmpty)
    }

    @Test func anAdminAddsAForm() throws {
        let admin = try TokenService(workspace: workspace).add(name: "ops", scope: .admin).token
        let response = api().respond(to: Self.postText("/v1/forms", "form contact\nfield email email required\n", token: admin))
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        try #expect(JSONParser().parse(response.body)["kind"]?.stringValue == "form")
        try #expect(Store(path: settings.databasePath).currentVersions(.form).map(\.name) == ["contact"])
        #expect(api().respond(to: Self.get("/v1/forms/contact")).status == 200)
    }
}
