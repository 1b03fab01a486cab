import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit
@testable import FormularyServer

/// Tokens of `formulary serve`: made once and kept only as a hash, listed and revoked with
/// audit records, and checked by the API on every request (scope, revocation).
struct TokenServiceTests {
    let folder: String
    let settings: WorkspaceSettings
    let today = CivilDate(year: 2026, month: 11, day: 29)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-tokens-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store = try Store(path: folder + "/t.db")
        try store.migrate()
        settings = WorkspaceSettings(databasePath: folder + "/t.db", pluginFolders: [], actor: "ada")
    }

    var service: TokenService { TokenService(workspace: Workspace(settings: settings)) }

    func api(publicRead: Bool = false) -> RegistryAPI {
        let today = self.today
        return RegistryAPI(settings: settings, publicRead: publicRead) { today }
    }

    static func get(_ path: String, token: String? = nil) -> HTTPRequest {
        HTTPRequest(method: "GET", path: path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    @Test func aTokenIsShownOnceAndStoredOnlyAsItsHash() throws {
        let made = try service.add(name: "web-frontend", scope: .read)
        #expect(made.token.hasPrefix("fmy_") && made.token.count == 68)
        #expect(try service.add(name: "ci", scope: .admin).token != made.token)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/t.db"))
        let wal = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/t.db-wal"))) ?? Data()
        #expect((bytes + wal).range(of: Data(made.token.utf8)) == nil, "the token itself is never stored")

        let listed = try service.list()
        #expect(listed.map(\.name) == ["web-frontend", "ci"] && listed.map(\.scope) == ["read", "admin"])
        #expect(listed.allSatisfy { $0.createdBy == "ada" && $0.revokedAt == nil })
        let audit = try Store(path: folder + "/t.db").auditRecords()
        #expect(audit.suffix(2).map(\.action) == ["token.add", "token.add"])
        #expect(!audit.contains { $0.details.contains(made.token) || $0.details.contains(TokenService.hash(made.token)) })
    }

    @Test func namesAreCheckedAndAWorkingNameIsNotGivenTwice() throws {
        _ = try service.add(name: "web", scope: .read)
        #expect(throws: ServiceError.self) { _ = try service.add(name: "web", scope: .submit) }
        #expect(throws: ServiceError.self) { _ = try service.add(name: "has space", scope: .read) }
        #expect(throws: ServiceError.self) { _ = try service.add(name: "", scope: .read) }
        #expect(throws: ServiceError.self) { try service.revoke(name: "nobody") }
        try service.revoke(name: "web")
        #expect(throws: ServiceError.self) { try service.revoke(name: "web") }
        _ = try service.add(name: "web", scope: .submit)   // a revoked name may be given again
        let listed = try service.list()
        #expect(listed.count == 2 && listed[0].revokedAt != nil && listed[1].revokedAt == nil)
        #expect(try Store(path: folder + "/t.db").auditRecords().map(\.action).filter { $0.hasPrefix("token.") }
                == ["token.add", "token.revoke", "token.add"])
    }

    @Test func theAPIWantsAKnownWorkingTokenOfEnoughScope() throws {
        let api = api()
        #expect(api.respond(to: Self.get("/v1/types")).status == 401)
        let read = try service.add(name: "reader", scope: .read)
        let ok = api.respond(to: Self.get("/v1/types", token: read.token))
        #expect(ok.status == 200 && ok.tokenName == "reader")
        #expect(api.respond(to: Self.get("/v1/types", token: "fmy_" + String(repeating: "0", count: 64))).status == 401)
        let malformed = HTTPRequest(method: "GET", path: "/v1/types", headers: ["Authorization": "Basic abc"])
        #expect(api.respond(to: malformed).status == 401)

        // Revoked elsewhere: refused on the next request (the revocation is audited, so the
        // server's snapshot is made again).
        try service.revoke(name: "reader")
        #expect(api.respond(to: Self.get("/v1/types", token: read.token)).status == 401)

        // With --public-read, no token is needed to read, but a bad one is still refused.
        let open = self.api(publicRead: true)
        #expect(open.respond(to: Self.get("/v1/types")).status == 200)
        #expect(open.respond(to: Self.get("/v1/types", token: read.token)).status == 401)
    }

    @Test func scopesAreOrdered() {
        #expect(TokenScope.read < .submit && TokenScope.submit < .admin)
        #expect(TokenScope.allCases.map(\.rawValue) == ["read", "submit", "admin"])
    }
}
