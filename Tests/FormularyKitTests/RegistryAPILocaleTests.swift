import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyKit
@testable import FormularyServer

/// The HTTP API answers each request in its locale: a `locale` field, else
/// `Accept-Language`, else the server's own, and says which in `Content-Language`.
struct RegistryAPILocaleTests {
    let base: RegistryAPITests

    init() throws { base = try RegistryAPITests() }

    func api(locale: String? = nil) throws -> RegistryAPI {
        try "form signup\nfield age age required\nfield nick username required label \"Nickname\"\n"
            .write(toFile: base.folder + "/plugins/signup.form", atomically: true, encoding: .utf8)
        var settings = base.settings
        settings.locale = locale
        let today = base.today
        return RegistryAPI(settings: settings, publicRead: true) { today }
    }

    static func check(_ api: RegistryAPI, body extra: String = "", headers: [String: String] = [:]) throws
        -> (message: String?, language: String?, status: Int) {
        let request = HTTPRequest(method: "POST", path: "/v1/check", headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a },
                                  body: Array(#"{"type": "age", "values": ["200"]\#(extra)}"#.utf8))
        let response = api.respond(to: request)
        let json = try? RegistryAPITests.json(response)
        let message = json?["results"]?.arrayValue?.first?["violations"]?.arrayValue?.first?["message"]?.stringValue
        return (message, response.headers.first { $0.name == "Content-Language" }?.value, response.status)
    }

    @Test func aLocaleFieldThenAcceptLanguageThenTheServersOwn() throws {
        let api = try api()
        #expect(try Self.check(api).message == "Age must be between 0 and 150")
        #expect(try Self.check(api).language == nil)
        let german = try Self.check(api, headers: ["Accept-Language": "de-CH, fr;q=0.8"])
        #expect(german.message == "Das Alter muss zwischen 0 und 150 liegen" && german.language == "de-CH")
        // By weight, and past ranges the server has no catalogs for.
        #expect(try Self.check(api, headers: ["Accept-Language": "ja, de;q=0.5, fr;q=0.9"]).message
                == "L'âge doit être compris entre 0 et 150")
        #expect(try Self.check(api, headers: ["Accept-Language": "fr;q=0, es"]).language == "es")
        // The field wins over the header; `en` is the types' own texts.
        let field = try Self.check(api, body: #", "locale": "pt-BR""#, headers: ["Accept-Language": "de"])
        #expect(field.message == "A idade deve estar entre 0 e 150" && field.language == "pt-BR")
        #expect(try Self.check(api, headers: ["Accept-Language": "en-GB, de;q=0.9"]).message == "Age must be between 0 and 150")
        #expect(try Self.check(api, body: #", "locale": "???""#).status == 400)
        #expect(try Self.check(api, body: #", "locale": 7"#).status == 400)
    }

    @Test func aServerStartedInALocaleSpeaksItUnlessAskedOtherwise() throws {
        let api = try api(locale: "fr")
        let own = try Self.check(api)
        #expect(own.message == "L'âge doit être compris entre 0 et 150" && own.language == "fr")
        #expect(try Self.check(api, headers: ["Accept-Language": "en"]).message == "Age must be between 0 and 150")
        #expect(try Self.check(api, headers: ["Accept-Language": "ja"]).language == "fr")
    }

    @Test func formsAreJudgedInTheLocaleToo() throws {
        let api = try api()
        let request = HTTPRequest(method: "POST", path: "/v1/forms/signup/judge",
                                  headers: ["Content-Type": "application/json", "Accept-Language": "de"],
                                  body: Array(#"{"fields": {}}"#.utf8))
        let response = api.respond(to: request)
        let text = RegistryAPITests.text(response)
        #expect(response.status == 200, "\(text)")
        #expect(text.contains("'age' ist ein Pflichtfeld") && text.contains("Nickname ist ein Pflichtfeld"), "\(text)")
        #expect(response.headers.contains { $0.name == "Content-Language" && $0.value == "de" })
    }
}
