import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit
@testable import FormularyServer

/// The HTTP API's handlers called as plain functions, without a socket: every endpoint,
/// the answers `check` shares byte for byte with the command line, the ETag, and every
/// error status.
struct RegistryAPITests {
    let folder: String
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-api-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
    }

    var settings: WorkspaceSettings {
        WorkspaceSettings(databasePath: folder + "/none.db",
                          pluginFolders: [PluginFolder(path: folder + "/plugins", origin: .option)], actor: "ada")
    }

    func api(publicRead: Bool = true) -> RegistryAPI {
        let today = self.today
        return RegistryAPI(settings: settings, publicRead: publicRead) { today }
    }

    static func post(_ path: String, _ body: String, contentType: String = "application/json") -> HTTPRequest {
        HTTPRequest(method: "POST", path: path, headers: ["Content-Type": contentType], body: Array(body.utf8))
    }

    static func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    static func json(_ response: HTTPResponse) throws -> JSONValue { try JSONParser().parse(response.body) }

    @Test func healthAndTheTypeListAndOneType() throws {
        let api = api()
        #expect(Self.text(api.respond(to: HTTPRequest(method: "GET", path: "/healthz"))) == "{\"status\":\"ok\"}\n")
        let list = try Self.json(api.respond(to: HTTPRequest(method: "GET", path: "/v1/types")))
        let names = list["types"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names.contains("credit-card") && names.contains("email"))
        #expect(list["types"]?[0]?.objectValue?.keys.sorted() == ["label", "name", "source", "version"])

        // One type is exactly its object in the export document.
        let export = try Self.json(api.respond(to: HTTPRequest(method: "GET", path: "/v1/export")))
        let inExport = export["types"]?.arrayValue?.first { $0["name"]?.stringValue == "email" }
        let one = try Self.json(api.respond(to: HTTPRequest(method: "GET", path: "/v1/types/email")))
        #expect(one == inExport)
        let missing = api.respond(to: HTTPRequest(method: "GET", path: "/v1/types/emial"))
        #expect(missing.status == 404 && Self.text(missing).contains("\"code\":\"not_found\""))
    }

    /// The paths matched without splitting (asked on every keystroke) route exactly as the
    /// router does, wrong methods included.
    @Test func theExactRoutesAreTheRoutersOwn() {
        for method in ["GET", "POST", "PUT", "DELETE"] {
            for path in ["/v1/edit", "/v1/check", "/healthz"] {
                let segments = path.split(separator: "/").map(String.init)
                #expect(Route.exact(method: method, path: path) == Route(method: method, segments: segments), "\(method) \(path)")
            }
        }
        #expect(Route.exact(method: "POST", path: "/v1/edit/") == nil && Route.exact(method: "POST", path: "//v1/edit") == nil)
        let api = api()
        #expect(api.respond(to: HTTPRequest(method: "GET", path: "/v1/edit")).status == 405)
        #expect(api.respond(to: Self.post("/v1/edit/", #"{"type": "credit-card", "text": "", "caret": 0, "replace": {"from": 0, "to": 0, "with": "4"}}"#)).status == 200)
        // Header names in any case, looked up in any case.
        let request = HTTPRequest(method: "POST", path: "/v1/check", headers: ["CONTENT-type": "text/plain"])
        #expect(request.header("content-type") == "text/plain" && request.header("Content-Type") == "text/plain")
    }

    @Test func exportHasAnETagAndAnswers304WhenItMatches() throws {
        let api = api()
        let first = api.respond(to: HTTPRequest(method: "GET", path: "/v1/export"))
        let etag = try #require(first.header("ETag"))
        #expect(first.status == 200 && etag.count == 66 && etag.hasPrefix("\""))
        let again = api.respond(to: HTTPRequest(method: "GET", path: "/v1/export", headers: ["If-None-Match": etag]))
        #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == etag)
        // The day the server's date checks measure from, for a page that runs formulary.js.
        #expect(first.header("Formulary-Today") == today.description && again.header("Formulary-Today") == today.description)
        let other = api.respond(to: HTTPRequest(method: "GET", path: "/v1/export", headers: ["If-None-Match": "\"abc\""]))
        #expect(other.status == 200)

        // A new plugin changes the document and its tag (no database: plugins are read again
        // when the snapshot is made; a new API sees them).
        try Data("field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n".utf8)
            .write(to: URL(fileURLWithPath: folder + "/plugins/zip5.field"))
        let changed = self.api().respond(to: HTTPRequest(method: "GET", path: "/v1/export", headers: ["If-None-Match": etag]))
        #expect(changed.status == 200 && changed.header("ETag") != etag)
    }

    @Test func checkAnswersAsTheCommandLinePrints() throws {
        let api = api()
        let response = api.respond(to: Self.post("/v1/check",
            #"{"type": "age(min: 21)", "values": ["20", "42", "x"], "stage": "final"}"#))
        #expect(response.status == 200)
        let expected = try CheckService(workspace: Workspace(settings: settings))
            .check("age(min: 21)", values: ["20", "42", "x"], stage: .final, today: today)
        let lines = expected.jsonLines.split(separator: 0x0A).map { Array($0) }
        #expect(Self.text(response) == "{\"results\":[" + lines.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]}\n")

        let live = try Self.json(api.respond(to: Self.post("/v1/check", #"{"type": "credit-card", "values": ["4111 11"], "stage": "live"}"#)))
        #expect(live["results"]?[0]?["verdict"]?.stringValue == "incomplete")
        // A secure type's values never come back.
        let secure = Self.text(api.respond(to: Self.post("/v1/check", #"{"type": "cvv", "values": ["123"]}"#)))
        #expect(!secure.contains("123") && secure.contains("•••"))
    }

    @Test func editAppliesOneChangeAsFieldEditorDoes() throws {
        let api = api()
        let typed = try Self.json(api.respond(to: Self.post("/v1/edit",
            #"{"type": "credit-card", "text": "4111", "caret": 4, "replace": {"from": 4, "to": 4, "with": "1"}}"#)))
        #expect(typed["text"]?.stringValue == "4111 1" && typed["caret"]?.intValue == 6)
        #expect(typed["accepted"]?.boolValue == true && typed["verdict"]?.stringValue == "incomplete")

        let refused = try Self.json(api.respond(to: Self.post("/v1/edit",
            #"{"type": "credit-card", "text": "4111", "caret": 4, "replace": {"from": 4, "to": 4, "with": "x"}, "policy": "refuse-invalid"}"#)))
        #expect(refused["accepted"]?.boolValue == false && refused["text"]?.stringValue == "4111")
        // The page colours the field by `verdict`: a refused letter leaves the text's own
        // verdict (not red), and `refusal` says why.
        #expect(refused["verdict"]?.stringValue == "incomplete" && refused["message"]?.isNull == true)
        #expect(refused["refusal"]?.stringValue == "Credit Card Number takes digits only")
        #expect(typed["refusal"]?.isNull == true)
        let accepted = try Self.json(api.respond(to: Self.post("/v1/edit",
            #"{"type": "credit-card", "text": "4111", "caret": 4, "replace": {"from": 4, "to": 4, "with": "x"}, "policy": "accept-all"}"#)))
        #expect(accepted["accepted"]?.boolValue == true && accepted["verdict"]?.stringValue == "invalid")
        // The mask the shown text took names the card's brand, from its first digits on.
        #expect(typed["mask"]?.stringValue == "visa" && refused["mask"]?.stringValue == "visa")
        let amex = try Self.json(api.respond(to: Self.post("/v1/edit",
            #"{"type": "credit-card", "text": "3", "caret": 1, "replace": {"from": 1, "to": 1, "with": "7"}}"#)))
        #expect(amex["mask"]?.stringValue == "amex")
        let none = try Self.json(api.respond(to: Self.post("/v1/edit",
            #"{"type": "age", "text": "4", "caret": 1, "replace": {"from": 1, "to": 1, "with": "2"}}"#)))
        #expect(none["mask"]?.isNull == true)
        let checked = try Self.json(api.respond(to: Self.post("/v1/check",
            #"{"type": "credit-card(brands: \"visa\")", "values": ["378282246310005"]}"#)))
        #expect(checked["results"]?[0]?["mask"]?.stringValue == "amex")
        #expect(checked["results"]?[0]?["violations"]?[0]?["rule"]?.stringValue == "brand")
    }

    @Test(arguments: [
        (#"{"type": "credit-card", "text": "41", "caret": 9, "replace": {"from": 0, "to": 0, "with": ""}}"#, "caret"),
        (#"{"type": "credit-card", "text": "41", "caret": 1, "replace": {"from": 2, "to": 1, "with": ""}}"#, "replace.from"),
        (#"{"type": "credit-card", "text": "41", "caret": 1}"#, "replace"),
        (#"{"type": "credit-card", "text": "41", "caret": 1, "replace": {"from": 0, "to": 0, "with": ""}, "policy": "maybe"}"#, "policy"),
    ])
    func editRefusesBadPositionsAndPolicies(body: String, named: String) throws {
        let response = api().respond(to: Self.post("/v1/edit", body))
        #expect(response.status == 400)
        #expect(try Self.json(response)["error"]?["message"]?.stringValue?.contains("'\(named)'") == true)
    }

    @Test func jsonBodiesAreKnownByTheirMediaTypeInAnyCase() {
        #expect(RegistryAPI.isMedia("application/json", "application/json"))
        #expect(RegistryAPI.isMedia("application/json", " Application/JSON ; charset=utf-8"))
        #expect(!RegistryAPI.isMedia("application/json", "application/jsonp"))
        #expect(!RegistryAPI.isMedia("application/json", "text/plain"))
        #expect(!RegistryAPI.isMedia("application/json", "application\u{0F}json"))
        #expect(!RegistryAPI.isMedia("application/json", nil))
    }

    @Test func errorsAreJSONWithAStatusForEachKindOfMistake() throws {
        let api = api()
        func status(_ request: HTTPRequest) -> (Int, String?) {
            let response = api.respond(to: request)
            return (response.status, try? Self.json(response)["error"]?["code"]?.stringValue)
        }
        #expect(status(HTTPRequest(method: "GET", path: "/v2/types")) == (404, "not_found"))
        #expect(status(HTTPRequest(method: "PUT", path: "/v1/check")) == (405, "method_not_allowed"))
        #expect(status(Self.post("/v1/check", "{}", contentType: "text/plain")) == (415, "unsupported_media_type"))
        #expect(status(Self.post("/v1/check", "{not json")) == (400, "bad_request"))
        #expect(status(Self.post("/v1/check", "[1]")) == (400, "bad_request"))
        #expect(status(Self.post("/v1/check", #"{"type": "age", "values": [1]}"#)) == (400, "bad_request"))
        #expect(status(Self.post("/v1/check", #"{"type": "age", "values": ["1"], "stage": "soon"}"#)) == (400, "bad_request"))
        #expect(status(Self.post("/v1/check", #"{"type": "agee", "values": ["1"]}"#)) == (400, "bad_request"))
        let big = HTTPRequest(method: "POST", path: "/v1/check", headers: ["Content-Type": "application/json"],
                              body: [UInt8](repeating: 0x20, count: RegistryAPI.maxBodyBytes + 1))
        #expect(status(big) == (413, "too_large"))
        // Without --public-read, reads need a token; the health check never does.
        let closed = self.api(publicRead: false)
        #expect(closed.respond(to: HTTPRequest(method: "GET", path: "/v1/types")).status == 401)
        #expect(closed.respond(to: HTTPRequest(method: "GET", path: "/healthz")).status == 200)
    }
}

/// The access log's line: a UTC time to the millisecond, never a query or a value.
struct AccessLogLineTests {
    @Test func aLineSaysTimeMethodPathStatusMillisecondsAndToken() {
        let at = Date(timeIntervalSince1970: 1_796_173_323.456)   // 2026-12-02T01:02:03.456Z
        var line = HTTPServer.AccessLogLine(at: at, method: "POST", path: "/v1/check", status: 200,
                                            milliseconds: 0.406, tokenName: nil)
        #expect(line.text == "2026-12-02T01:02:03.456Z POST /v1/check 200 0.41 ms -")
        line.milliseconds = 12.3
        line.tokenName = "ci"
        #expect(line.text.hasSuffix(" 12.30 ms ci"))
        #expect(HTTPServer.AccessLogLine.utc(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        line.milliseconds = 1_234.004
        #expect(line.text.hasSuffix(" 1234.00 ms ci"))
        line.status = 404
        line.milliseconds = 0.05
        #expect(line.text.contains(" 404 0.05 ms "))
    }

    /// What the client chose — method, path, token name — cannot put a control character,
    /// a space or a byte outside ASCII on the line: each is `%XX`, and so is `%` itself.
    @Test func aClientsBytesArePercentEncoded() {
        let line = HTTPServer.AccessLogLine(at: Date(timeIntervalSince1970: 0), method: "G\u{1B}T",
                                            path: "/v1/a b\n%\u{7F}ä\u{202E}/~-_.!$&'()*+,;=:@", status: 404,
                                            milliseconds: 1, tokenName: "ops team")
        #expect(line.text == "1970-01-01T00:00:00.000Z G%1BT /v1/a%20b%0A%25%7F%C3%A4%E2%80%AE/~-_.!$&'()*+,;=:@ 404 1.00 ms ops%20team")
    }

    /// The date is worked out by arithmetic, not `gmtime`: it must agree with `gmtime` on
    /// leap days, century years and before 1970, at every hour of the day.
    @Test func theTimeIsGmtimesFrom1900To2200() {
        var mismatches: [String] = []
        var t = -2_208_988_800   // 1900-01-01T00:00:00Z
        while t < 7_258_118_400 {   // 2200-01-01
            var seconds = time_t(t)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
            let expected = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).250Z"
            let made = HTTPServer.AccessLogLine.utc(Date(timeIntervalSince1970: Double(t) + 0.25))
            if made != expected { mismatches.append("\(t): \(made) != \(expected)") }
            t += 86_400 + 3_607   // a day and an hour and a few seconds: every hour comes round
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(HTTPServer.AccessLogLine.utc(Date(timeIntervalSince1970: 951_782_400.9996)) == "2000-02-29T00:00:00.999Z")
        #expect(HTTPServer.AccessLogLine.utc(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }
}
