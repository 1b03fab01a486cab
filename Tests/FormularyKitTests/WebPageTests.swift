import Foundation
import Testing
import FormularyRules
@testable import FormularyKit
@testable import FormularyServer

/// The page `formulary serve` answers at `/` is `web/` byte for byte, served with its media
/// type and a policy that allows no script from elsewhere.
struct WebPageTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("web")

    @Test func theEmbeddedFilesEqualTheWebFolder() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.web.path).sorted()
        #expect(WebPageFiles.files.map(\.name).sorted() == names, "run make embed")
        for file in WebPageFiles.files {
            let onDisk = try Data(contentsOf: Self.web.appendingPathComponent(file.name))
            #expect(Array(onDisk) == Array(file.text.utf8), "\(file.name) differs from its embedded copy: run make embed")
        }
    }

    @Test(arguments: [("/", "text/html; charset=utf-8", "<!doctype html>"),
                      ("/assets/formulary.css", "text/css; charset=utf-8", "/* Formulary"),
                      ("/assets/formulary.js", "text/javascript; charset=utf-8", "// Formulary")])
    func eachFileIsServedWithItsType(path: String, type: String, start: String) throws {
        let api = RegistryAPI(settings: WorkspaceSettings(databasePath: "/nonexistent/formulary.db", pluginFolders: [], actor: "t"),
                              publicRead: false, today: { CivilDate(year: 2026, month: 11, day: 29) })
        let answer = api.respond(to: HTTPRequest(method: "GET", path: path))
        #expect(answer.status == 200)
        #expect(answer.header("Content-Type") == type)
        #expect(answer.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(answer.header("X-Content-Type-Options") == "nosniff")
        #expect(String(decoding: answer.body, as: UTF8.self).hasPrefix(start))
    }

    @Test func otherPathsAndMethodsAreNotThePage() {
        #expect(WebPage.response(method: "POST", path: "/") == nil)
        #expect(WebPage.response(method: "GET", path: "/assets/other.js") == nil)
        #expect(WebPage.response(method: "GET", path: "/web/index.html") == nil)
    }
}
