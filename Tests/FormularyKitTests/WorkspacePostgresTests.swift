import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyKit

/// A workspace on a server database: opened by URL, checked like a file, and read-only on
/// the server's side for reading commands.
@Suite(.needsPostgresServer) struct WorkspacePostgresTests {
    func workspace(_ url: String) -> Workspace {
        Workspace(settings: WorkspaceSettings(databasePath: url, pluginFolders: [], actor: "ada"))
    }

    @Test func aReadingStoreCannotWriteOnTheServer() throws {
        let scratch = try ScratchPostgresDatabase()
        try withExtendedLifetime(scratch) {
            let ws = workspace(scratch.url)
            #expect(!ws.databaseExists, "a database createdb made counts as none until init")
            let initialized = try SchemaService(workspace: ws).initialize()
            #expect(initialized.created && !initialized.applied.isEmpty)
            let reader = workspace(scratch.url)
            #expect(reader.databaseExists)
            let store = try reader.store(.read)
            let refused = #expect(throws: PostgresError.self) {
                try store.appendAudit(actor: "mallory", action: "forms.add", subject: "x")
            }
            #expect(refused?.sqlState == "25006", "read_only_sql_transaction: \(String(describing: refused))")
            let error = try #require(refused)
            let message = try #require(reader.serviceError(for: error, command: ["impact"]))
            #expect(message.message.contains("allows only reading"), "\(message.message)")
            #expect(try store.auditRecords().isEmpty, "nothing was written")
            // A writing command's store writes.
            let writer = try reader.store(.write)
            try writer.appendAudit(actor: "ada", action: "forms.add", subject: "x")
            #expect(try writer.auditRecords().count == 1)
        }
    }

    @Test func aServerDatabaseWithoutFormularyTablesSaysRunInit() throws {
        let scratch = try ScratchPostgresDatabase()
        withExtendedLifetime(scratch) {
            let ws = workspace(scratch.url)
            let error = #expect(throws: ServiceError.self) { _ = try EntriesService(workspace: ws).list(form: nil, failing: false, limit: 10) }
            #expect(error?.message.contains("is not a Formulary database yet") == true, "\(String(describing: error))")
            #expect(error?.message.contains("run 'formulary init'") == true)
        }
    }
}
