import Foundation
import Testing
import FormularyRules
@testable import FormularyKit
@testable import FormularyServer

/// formulary.js at `/v1/runtime/formulary.js`: `runtime/js/formulary.js` byte for byte, with
/// an ETag that `If-None-Match` answers with 304, for `HEAD` too, without a token, importable
/// from any origin; and `/v1/export` says the day the server judges by.
struct RuntimeScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func api(publicRead: Bool = false) -> RegistryAPI {
        RegistryAPI(settings: WorkspaceSettings(databasePath: "/nonexistent/formulary.db", pluginFolders: [], actor: "t"),
                    publicRead: publicRead, today: { CivilDate(year: 2026, month: 11, day: 29) })
    }

    @Test func theEmbeddedRuntimeIsRuntimeJSByteForByte() throws {
        let onDisk = try Data(contentsOf: Self.root.appendingPathComponent("runtime/js/formulary.js"))
        #expect(RuntimeFiles.files.map(\.name) == ["formulary.js"])
        #expect(RuntimeScript.bytes == Array(onDisk), "runtime/js/formulary.js differs from its embedded copy: run make embed")
        #expect(RuntimeScript.bytes.count < 100_000, "formulary.js is \(RuntimeScript.bytes.count) bytes; it must stay under 100 KB")
    }

    @Test func itIsServedWithoutATokenWithAnETag() throws {
        let answer = Self.api().respond(to: HTTPRequest(method: "GET", path: "/v1/runtime/formulary.js"))
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(answer.header("Access-Control-Allow-Origin") == "*")
        #expect(answer.header("X-Content-Type-Options") == "nosniff")
        #expect(answer.header("Cache-Control")?.contains("no-cache") == true)
        let etag = try #require(answer.header("ETag"))
        #expect(etag.hasPrefix("\"fnv1a64-") && etag.count == 26)
        #expect(answer.body == RuntimeScript.bytes)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("export class Catalog"))

        let head = Self.api().respond(to: HTTPRequest(method: "HEAD", path: "/v1/runtime/formulary.js"))
        #expect(head.status == 200 && head.header("ETag") == etag)

        let cached = Self.api().respond(to: HTTPRequest(method: "GET", path: "/v1/runtime/formulary.js",
                                                        headers: ["If-None-Match": "\"other\", \(etag)"]))
        #expect(cached.status == 304 && cached.body.isEmpty && cached.header("ETag") == etag)
        let stale = Self.api().respond(to: HTTPRequest(method: "GET", path: "/v1/runtime/formulary.js",
                                                       headers: ["If-None-Match": "\"fnv1a64-0000000000000000\""]))
        #expect(stale.status == 200)
    }

    @Test func otherMethodsAreNotAllowed() {
        let answer = Self.api().respond(to: HTTPRequest(method: "POST", path: "/v1/runtime/formulary.js",
                                                        headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
        #expect(answer.status == 405)
        #expect(answer.header("Allow") == "GET, HEAD")
        #expect(Self.api().respond(to: HTTPRequest(method: "GET", path: "/v1/runtime/other.js")).status == 404)
    }
}
