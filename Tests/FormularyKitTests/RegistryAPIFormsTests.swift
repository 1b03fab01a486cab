import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit
@testable import FormularyServer

/// The form endpoints called as plain functions: `/judge` answers what `forms judge`
/// renders, and `/entries` stores an entry as an import of one record would, audited, with
/// every refusal its own status.
struct RegistryAPIFormsTests {
    let folder: String
    let settings: WorkspaceSettings
    let today = CivilDate(year: 2026, month: 11, day: 29)

    static let form = """
        form signup
        field name         name           required
        field email        email          required
        field email-again  email          required
        field age          age(min: 18)
        field cvv          cvv
        same email email-again message "The two email addresses differ"

        """

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-api-forms-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Data(Self.form.utf8).write(to: URL(fileURLWithPath: folder + "/plugins/signup.form"))
        let store = try Store(path: folder + "/f.db")
        try store.migrate()
        settings = WorkspaceSettings(databasePath: folder + "/f.db",
                                     pluginFolders: [PluginFolder(path: folder + "/plugins", origin: .option)], actor: "ada")
    }

    var workspace: Workspace { Workspace(settings: settings) }

    func api(publicRead: Bool = true) -> RegistryAPI {
        let today = self.today
        return RegistryAPI(settings: settings, publicRead: publicRead) { today }
    }

    func token(_ name: String, _ scope: TokenScope) throws -> String {
        try TokenService(workspace: workspace).add(name: name, scope: scope).token
    }

    static func post(_ path: String, _ body: String, token: String? = nil) -> HTTPRequest {
        var headers = ["Content-Type": "application/json"]
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return HTTPRequest(method: "POST", path: path, headers: headers, body: Array(body.utf8))
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }
    static func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser().parse(response.body) }

    @Test func judgeAnswersTheDocumentTheServiceRenders() throws {
        let values = ["name": "Ada", "email": "ada@example.com", "email-again": "ada@example.org",
                      "age": "17", "cvv": "987", "nickname": "A"]
        let body = try JSONValue.object(JSONObject(values.map { ($0.key, JSONValue.string($0.value)) }))
        let response = api().respond(to: Self.post("/v1/forms/signup/judge",
                                                   #"{"fields": \#(String(decoding: body.serializedBytes(), as: UTF8.self))}"#))
        #expect(response.status == 200)
        let expected = try JudgeService(workspace: workspace).judge(form: "signup", values: values, stage: .final, today: today)
        #expect(response.body == expected.jsonDocument)

        let answer = try Self.json(response)
        #expect(answer.objectValue?.keys == ["verdict", "fields", "form_violations", "unknown_fields"])
        #expect(answer["verdict"]?.stringValue == "invalid")
        #expect(answer["fields"]?.objectValue?.keys == ["name", "email", "email-again", "age", "cvv"])
        #expect(answer["fields"]?["age"]?["verdict"]?.stringValue == "invalid")
        #expect(answer["fields"]?["age"]?["violations"]?[0]?["rule"]?.stringValue == "range")
        #expect(answer["fields"]?["name"]?["formatted"]?.stringValue == "Ada")
        #expect(answer["form_violations"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } == ["same", "unknown-field"])
        #expect(answer["unknown_fields"]?.arrayValue == [.string("nickname")])
        // A secure value never comes back, formatted or not.
        #expect(answer["fields"]?["cvv"]?["formatted"]?.stringValue == "•••")
        #expect(!Self.text(response).contains("987"))
    }

    @Test func judgeInTheLiveStageCallsAPrefixIncomplete() throws {
        let response = api().respond(to: Self.post("/v1/forms/signup/judge",
                                                   #"{"fields": {"email": "ada@exa"}, "stage": "live"}"#))
        let answer = try Self.json(response)
        #expect(answer["fields"]?["email"]?["verdict"]?.stringValue == "incomplete")
        // `required` waits for the final stage.
        #expect(answer["fields"]?["name"]?["violations"]?.arrayValue == [])
        // But the form is not done: email is still being typed, name is still empty.
        #expect(answer["verdict"]?.stringValue == "incomplete")
    }

    @Test(arguments: [
        ("/v1/forms/nope/judge", #"{"fields": {}}"#, 404),
        ("/v1/forms/signup/judge", #"{"values": {}}"#, 400),
        ("/v1/forms/signup/judge", #"{"fields": {"age": 17}}"#, 400),
        ("/v1/forms/signup/judge", #"{"fields": {}, "stage": "soon"}"#, 400),
        ("/v1/forms/signup/judge", #"{"fields": "#, 400),
    ])
    func judgeRefusesUnknownFormsAndBadBodies(path: String, body: String, status: Int) throws {
        let response = api().respond(to: Self.post(path, body))
        #expect(response.status == status, "\(Self.text(response))")
        try #expect(Self.json(response)["error"]?["message"]?.stringValue?.isEmpty == false)
    }

    @Test func anEntryIsStoredAndAuditedAsAnImportOfOneRecord() throws {
        let token = try token("pipeline", .submit)
        let api = api()
        let response = api.respond(to: Self.post("/v1/forms/signup/entries", """
            {"key": "ada-1", "fields": {"name": "Ada", "email": "ada@example.com", "email-again": "ada@example.com",
             "age": 36, "cvv": "987"}}
            """, token: token))
        #expect(response.status == 201, "\(Self.text(response))")
        let answer = try Self.json(response)
        #expect(answer.objectValue?.keys == ["id", "verdict"] && answer["verdict"]?.stringValue == "valid")
        #expect(response.tokenName == "pipeline")
        #expect(!Self.text(response).contains("987"))

        let store = try Store(path: settings.databasePath)
        let id = try #require(answer["id"]?.intValue)
        let entry = try #require(try store.entry(id: Int64(id)))
        #expect(entry.form == "signup" && entry.key == "ada-1")
        #expect(Dictionary(uniqueKeysWithValues: zip(entry.fields, entry.values))["age"] == "36")
        let audit = try #require(try store.auditRecords().last)
        #expect(audit.action == "import" && audit.actor == "pipeline" && audit.subject == "signup")
        #expect(audit.details.contains("\"file\":\"http:pipeline\"") && audit.details.contains("\"records\":1"))
        // Outside the digests: a random 64-digit hash holds "987" now and then.
        #expect(!audit.details.replacingOccurrences(of: "[0-9a-f]{64}", with: "", options: .regularExpression).contains("987"))
        try #expect(store.auditReport(expectedHead: nil).isValid)

        // The verdict is the form's: an invalid entry is stored all the same.
        let invalid = try Self.json(api.respond(to: Self.post("/v1/forms/signup/entries",
            #"{"fields": {"name": "Bob", "email": "bob@example"}}"#, token: token)))
        #expect(invalid["verdict"]?.stringValue == "invalid")
        try #expect(store.entryCount(form: "signup") == 2)
    }

    @Test func aTakenKeyIsAConflictAndStoresNothing() throws {
        let token = try token("pipeline", .submit)
        let api = api()
        let body = #"{"key": "k", "fields": {"name": "Ada"}}"#
        #expect(api.respond(to: Self.post("/v1/forms/signup/entries", body, token: token)).status == 201)
        let store = try Store(path: settings.databasePath)
        let head = try store.auditHead()
        let again = api.respond(to: Self.post("/v1/forms/signup/entries", #"{"key": "k", "fields": {"name": "Bob"}}"#, token: token))
        try #expect(again.status == 409 && (Self.json(again)["error"]?["code"]?.stringValue) == "conflict")
        try #expect(store.entryCount(form: "signup") == 1 && (store.auditHead()) == head)
        try #expect(store.entries(form: "signup")[0].values.contains("Ada"))
    }

    @Test func submittingNeedsASubmitTokenAndAGoodBody() throws {
        let reader = try token("reader", .read)
        let writer = try token("writer", .submit)
        let api = api()
        func status(_ body: String, token: String?, path: String = "/v1/forms/signup/entries") -> Int {
            api.respond(to: Self.post(path, body, token: token)).status
        }
        let good = #"{"fields": {"name": "Ada"}}"#
        #expect(status(good, token: nil) == 401)
        #expect(status(good, token: reader) == 403)
        #expect(status(good, token: writer, path: "/v1/forms/nope/entries") == 404)
        #expect(status(#"{"fields": {"nom": "Ada"}}"#, token: writer) == 400)
        #expect(status(#"{"fields": {"name": ["Ada"]}}"#, token: writer) == 400)
        #expect(status(#"{"fields": []}"#, token: writer) == 400)
        #expect(status(#"{"key": 7, "fields": {"name": "Ada"}}"#, token: writer) == 400)
        #expect(status(#"{"key": " ", "fields": {"name": "Ada"}}"#, token: writer) == 400)
        try #expect(Store(path: settings.databasePath).entryCount() == 0)
        #expect(status(good, token: writer) == 201)
    }
}
