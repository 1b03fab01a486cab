import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// The workspace opens the database the way every command needs it, and says what is
/// wrong with a file it cannot use in the user's words (``ServiceError``).
struct WorkspaceTests {
    let folder: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-ws-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func workspace(_ name: String = "f.db", folders: [PluginFolder] = []) -> Workspace {
        Workspace(settings: WorkspaceSettings(databasePath: folder + "/" + name, pluginFolders: folders, actor: "ada"))
    }

    func failure(_ body: () throws -> Void) -> ServiceError? {
        do {
            try body()
            return nil
        } catch let error as ServiceError {
            return error
        } catch {
            Issue.record("not a ServiceError: \(error)")
            return nil
        }
    }

    @Test func aMissingDatabaseIsAnEnvironmentFailureThatSaysToRunInit() {
        let error = failure { _ = try AuditService(workspace: workspace()).head() }
        #expect(error?.kind == .environment)
        #expect(error?.message.contains("no database at \(folder)/f.db; run 'formulary init'") == true)
        #expect(!FileManager.default.fileExists(atPath: folder + "/f.db"))
    }

    @Test func aFolderAsTheDatabaseIsBadInput() throws {
        try FileManager.default.createDirectory(atPath: folder + "/dir", withIntermediateDirectories: true)
        let error = failure { _ = try AuditService(workspace: workspace("dir")).head() }
        #expect(error?.kind == .badInput)
        #expect(error?.message.contains("is a folder; name the database file") == true)
    }

    @Test func anotherFilesBytesAreRefusedUntouched() throws {
        let path = folder + "/notes.db"
        try Data("hello, this is not SQLite at all".utf8).write(to: URL(fileURLWithPath: path))
        let error = failure { _ = try SchemaService(workspace: workspace("notes.db")).initialize() }
        #expect(error?.kind == .environment)
        #expect(error?.message.contains("is not an SQLite database") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello, this is not SQLite at all".utf8))
    }

    /// POSIX locks belong to the process: were the database file's header read with a
    /// descriptor of its own, closing it would drop the locks of the connection already open
    /// here (as `serve` opens connections beside open ones), and the `sqlite3` shell, closing
    /// what it believes is the last connection, would remove `-wal` and `-shm` under it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 shell (make deps)"))
    func openingTheDatabaseAgainKeepsTheLocksOfConnectionsAlreadyOpen() throws {
        _ = try SchemaService(workspace: workspace()).initialize()
        let first = workspace()
        _ = try AuditService(workspace: first).head()   // a connection that has read, kept open
        let second = workspace()
        _ = try AuditService(workspace: second).head()  // the header checked again, beside it
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [folder + "/f.db", "SELECT count(*) FROM audit_log;"]
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: folder + "/f.db-wal"),
                "the shell removed the write-ahead log of a database this process has open")
        _ = try AuditService(workspace: first).head()
    }

    @Test func initCreatesThenFindsNothingToDo() throws {
        let schema = SchemaService(workspace: workspace())
        let first = try schema.initialize()
        #expect(first.created && !first.applied.isEmpty)
        let json = try JSONValue(parsing: String(decoding: first.jsonDocument, as: UTF8.self))
        #expect(json["created"] == .bool(true))
        #expect(json["database"] == .string(folder + "/f.db"))
        let second = try SchemaService(workspace: workspace()).initialize()
        #expect(!second.created && second.applied.isEmpty)
        #expect(try SchemaService(workspace: workspace()).migrationStatus().allSatisfy(\.isApplied))
    }

    @Test func storeFailuresReadAsTheUserShouldSeeThem() {
        let ws = workspace()
        let missing = ws.serviceError(for: StoreError.noSuchEntry(7), command: ["entries", "show"])
        #expect(missing?.kind == .notFound)
        #expect(missing?.message == "no entry with id 7 (see 'formulary entries list')")

        let full = ws.serviceError(for: DatabaseError(extendedCode: 13, message: "database or disk is full",
                                                      sql: "INSERT INTO t -- a comment\nVALUES (1)"),
                                   command: ["import"])
        #expect(full?.kind == .environment)
        #expect(full?.message == "the disk holding \(folder)/f.db is full (or the database reached its size limit); "
                + "nothing was written. Free some space, then run the command again.")
        guard case .text(let details)? = full?.details else {
            Issue.record("SQLite's words are the details")
            return
        }
        #expect(details.contains("INSERT INTO t VALUES (1)"))

        let kept = ws.serviceError(for: DatabaseError(extendedCode: 10), command: ["validate"])
        #expect(kept?.message.contains("results committed before the failure are kept") == true)

        struct Other: Error {}
        #expect(ws.serviceError(for: Other(), command: []) == nil)
    }

    @Test func retiringABuiltInSaysWhereItComesFrom() throws {
        _ = try SchemaService(workspace: workspace()).initialize()
        let error = failure { _ = try RegistryService(workspace: workspace()).retire(.type, name: "email") }
        #expect(error?.kind == .notAllowed)
        #expect(error?.message.hasPrefix("no type named 'email' is in the database; it is a built-in type") == true)
    }
}
