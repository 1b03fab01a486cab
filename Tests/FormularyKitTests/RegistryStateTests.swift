import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit
@testable import FormularyServer

/// What `serve` answers from is as fresh as the database on every request, though it reads
/// the audit head only when SQLite says another connection committed, and reloads the
/// registry only when a type, form or token changed: on SQLite and on PostgreSQL, from one
/// thread or many.
struct RegistryStateTests {
    let today = CivilDate(year: 2026, month: 11, day: 29)
    static let zip5 = "field zip5\nlabel \"ZIP\"\nlength 5\naccept \"12345\"\n"

    /// A database (an SQLite file in a new folder, or `url`), with the signup form in a
    /// plugin folder; not initialized.
    static func settings(url: String? = nil) throws -> WorkspaceSettings {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder + "/plugins", withIntermediateDirectories: true)
        try Data(RegistryAPIFormsTests.form.utf8).write(to: URL(fileURLWithPath: folder + "/plugins/signup.form"))
        return WorkspaceSettings(databasePath: url ?? folder + "/f.db",
                                 pluginFolders: [PluginFolder(path: folder + "/plugins", origin: .option)], actor: "ada")
    }

    /// Adds type zip5 through a workspace of its own: another connection, as another process.
    func addZip5(_ settings: WorkspaceSettings) throws {
        let file = PluginFile(path: "zip5.field", bytes: Array(Self.zip5.utf8),
                              source: .folder(PluginFolder(path: "", origin: .option)))
        _ = try RegistryService(workspace: Workspace(settings: settings)).addTypes(pluginFiles: [file], today: today,
                                                                                   warnings: { _ in })
    }

    func submitEntry(_ settings: WorkspaceSettings, _ name: String) throws {
        let fields = try JSONValue(parsing: #"{"name": "\#(name)", "email": "a@example.com", "email-again": "a@example.com"}"#)
        _ = try ImportService(workspace: Workspace(settings: settings)).submit(form: "signup", key: nil, fields: fields,
                                                                              source: "test", today: today)
    }

    static func zip5Status(_ api: RegistryAPI) -> Int {
        api.respond(to: HTTPRequest(method: "GET", path: "/v1/types/zip5")).status
    }

    func api(_ settings: WorkspaceSettings) -> RegistryAPI {
        let today = self.today
        return RegistryAPI(settings: settings, publicRead: true) { today }
    }

    // MARK: SQLite

    @Test func aDatabaseMadeAfterTheServerStartedAndATypeAddedToItAreSeenOnTheNextRequest() throws {
        try seesEveryChangeAndKeepsTheRegistryOverImports(try Self.settings())
    }

    @Test func requestsOnManyThreadsEachSeeAChangeCommittedBeforeThey() throws {
        try everyRequestAfterACommitSeesIt(try Self.settings())
    }

    // MARK: PostgreSQL

    @Test(.needsPostgresServer) func onPostgreSQLTooChangesAreSeenAndImportsKeepTheRegistry() throws {
        let database = try ScratchPostgresDatabase()
        try withExtendedLifetime(database) {
            try seesEveryChangeAndKeepsTheRegistryOverImports(try Self.settings(url: database.url))
        }
    }

    @Test(.needsPostgresServer) func onPostgreSQLRequestsOnManyThreadsSeeAChangeCommittedBeforeThey() throws {
        let database = try ScratchPostgresDatabase()
        try withExtendedLifetime(database) {
            try everyRequestAfterACommitSeesIt(try Self.settings(url: database.url))
        }
    }

    // MARK: Shared

    func seesEveryChangeAndKeepsTheRegistryOverImports(_ settings: WorkspaceSettings) throws {
        let api = api(settings)
        // Before `init`: the built-in types and the plugin folder's, no database.
        #expect(Self.zip5Status(api) == 404)
        let before = try api.state.snapshot(today: today)
        #expect(before.registry.forms["signup"] != nil)

        _ = try SchemaService(workspace: Workspace(settings: settings)).initialize()
        let initialized = try api.state.snapshot(today: today)
        #expect(initialized !== before, "the database appeared: the registry is loaded again")
        try addZip5(settings)
        #expect(Self.zip5Status(api) == 200)
        let withZip5 = try api.state.snapshot(today: today)

        // Entries and runs change no type, form or token: the loaded registry is kept.
        try submitEntry(settings, "Ada")
        try submitEntry(settings, "Bob")
        #expect(try api.state.snapshot(today: today) === withZip5)
        _ = try ValidationService(workspace: Workspace(settings: settings)).run(forms: nil, today: today)
        #expect(try api.state.snapshot(today: today) === withZip5)

        // A token added, then an entry, then the token revoked: each change of tokens is
        // seen, though entries came between.
        let token = try TokenService(workspace: Workspace(settings: settings)).add(name: "reader", scope: .read).token
        try submitEntry(settings, "Cy")
        let authorized = HTTPRequest(method: "GET", path: "/v1/types", headers: ["Authorization": "Bearer \(token)"])
        #expect(api.respond(to: authorized).status == 200)
        try submitEntry(settings, "Di")
        try TokenService(workspace: Workspace(settings: settings)).revoke(name: "reader")
        #expect(api.respond(to: authorized).status == 401)

        // A type retired after an import is gone on the next request.
        try submitEntry(settings, "Ed")
        _ = try RegistryService(workspace: Workspace(settings: settings)).retire(.type, name: "zip5")
        #expect(Self.zip5Status(api) == 404)

        // Another day is another snapshot (date checks use it), with nothing changed.
        let now = try api.state.snapshot(today: today)
        #expect(try api.state.snapshot(today: CivilDate(year: 2026, month: 11, day: 30)) !== now)
    }

    /// Threads ask over and over while another connection adds a type: a request that began
    /// after the add returned must see it, whichever probe it borrowed.
    func everyRequestAfterACommitSeesIt(_ settings: WorkspaceSettings) throws {
        _ = try SchemaService(workspace: Workspace(settings: settings)).initialize()
        let api = api(settings)
        #expect(Self.zip5Status(api) == 404)
        let added = StateFlag(), stop = StateFlag()
        let stale = RequestCounter(), after = RequestCounter()
        let group = DispatchGroup()
        for _ in 0..<6 {
            group.enter()
            Thread {
                defer { group.leave() }
                while !stop.isSet {
                    let committed = added.isSet
                    let status = Self.zip5Status(api)
                    if committed {
                        after.add()
                        if status != 200 { stale.add() }
                    }
                }
            }.start()
        }
        // Let the threads make their probes and read the head a few times first.
        Thread.sleep(forTimeInterval: 0.2)
        try submitEntry(settings, "Ada")
        try addZip5(settings)
        added.set()
        // Enough requests begun after the commit to have met every probe; waiting for a count
        // rather than a fixed 0.3 s, which a loaded machine spent on one registry reload.
        let deadline = Date().addingTimeInterval(60)
        while after.value < 60 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        stop.set()
        group.wait()
        #expect(after.value > 0)
        #expect(stale.value == 0, "requests begun after the type was added did not see it")
    }
}

private final class StateFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

private final class RequestCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
