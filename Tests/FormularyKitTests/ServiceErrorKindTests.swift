import Foundation
import Testing
@testable import FormularyKit
@testable import FormularyServer

/// Failures say what happened in kinds a front end can act on, without reading messages:
/// a name that does not exist, a clash with what is stored, what may not be done, bad input.
struct ServiceErrorKindTests {
    let folder: String
    let workspace: Workspace

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-kinds-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        workspace = Workspace(settings: WorkspaceSettings(databasePath: folder + "/k.db", pluginFolders: [], actor: "ada"))
        _ = try SchemaService(workspace: workspace).initialize()
    }

    func kind(_ body: () throws -> Void) -> ServiceError.Kind? {
        do {
            try body()
            return nil
        } catch let error as ServiceError {
            return error.kind
        } catch {
            return workspace.serviceError(for: error, command: [])?.kind
        }
    }

    @Test func eachFailureHasTheKindACallerActsOn() throws {
        #expect(kind { _ = try RegistryService(workspace: workspace).describe(type: "credt-card") } == .notFound)
        #expect(kind { _ = try ReportService(workspace: workspace).load(run: 7, form: nil) } == .notFound)
        #expect(kind { _ = try EntriesService(workspace: workspace).show(id: 42) } == .notFound)
        let tokens = TokenService(workspace: workspace)
        _ = try tokens.add(name: "ops", scope: .admin)
        #expect(kind { _ = try tokens.add(name: "ops", scope: .read) } == .conflict)
        #expect(kind { try tokens.revoke(name: "nobody") } == .notFound)
        #expect(kind { _ = try tokens.add(name: "not a name", scope: .read) } == .badInput)
        // A built-in is there, but not the database's to retire.
        #expect(kind { _ = try RegistryService(workspace: workspace).retire(.type, name: "age") } == .notAllowed)
    }

    @Test func theHTTPStatusFollowsTheKind() {
        #expect(RegistryAPI.status(of: .badInput) == (400, "bad_request"))
        #expect(RegistryAPI.status(of: .notFound) == (404, "not_found"))
        #expect(RegistryAPI.status(of: .conflict) == (409, "conflict"))
        #expect(RegistryAPI.status(of: .notAllowed) == (403, "forbidden"))
        #expect(RegistryAPI.status(of: .environment) == (503, "unavailable"))
    }
}
