import Foundation
import Synchronization
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// Several processes on one server: four importers and a `types add` at once, each with its
/// own connection, lose nothing and fail nothing (writers queue on the advisory lock); and a
/// connection lost in the middle of an import leaves nothing of it behind.
struct PostgresConcurrencyTests {
    @Test(.needsPostgres) func fourImportersAndATypesAddAtOnceLoseNothing() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let url = database.url
        try Store(backend: try PostgresBackend(url: url)).migrate()
        let importers = 4, batches = 5, rowsPerBatch = 200
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for worker in 0...importers {
            done.enter()
            Thread {
                defer { done.leave() }
                do {
                    let store = Store(backend: try PostgresBackend(url: url))
                    if worker == importers {
                        for k in 0..<batches {
                            _ = try store.addVersion(.type, name: "t\(k)", source: "type t\(k)\n", actor: "types")
                        }
                        return
                    }
                    for batch in 0..<batches {
                        try store.transaction {
                            let writer = try store.entryWriter(form: "f\(worker)", actor: "w\(worker)", source: "\(batch).csv")
                            let layout = try writer.layoutID(for: ["v"])
                            for k in 0..<rowsPerBatch { try writer.add(layoutID: layout, values: ["\(worker)-\(batch)-\(k)"]) }
                            _ = try writer.recordAudit()
                        }
                    }
                } catch {
                    failures.withLock { $0.append("worker \(worker): \(error)") }
                }
            }.start()
        }
        done.wait()
        #expect(failures.withLock { $0 } == [])
        let store = Store(backend: try PostgresBackend(url: url))
        for worker in 0..<importers {
            #expect(try store.entryCount(form: "f\(worker)") == batches * rowsPerBatch)
        }
        #expect(try store.entryCount() == importers * batches * rowsPerBatch)
        #expect(try store.currentVersions(.type).count == batches)
        let ids = try store.entries().map(\.id)
        #expect(ids == Array(1...Int64(importers * batches * rowsPerBatch)))
        let report = try store.auditReport()
        #expect(report.isValid, "\(report.problems.map(\.message))")
    }

    @Test(.needsPostgres) func aConnectionLostMidImportLeavesNothing() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let backend = try PostgresBackend(url: database.url)
        let store = Store(backend: backend)
        try store.migrate()
        let admin = try database.connect()
        let pid = try #require(try backend.connection.scalarInt64("SELECT pg_backend_pid()"))
        let error = #expect(throws: PostgresError.self) {
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "ann", source: "a.csv")
                let layout = try writer.layoutID(for: ["v"])
                for k in 0..<100 { try writer.add(layoutID: layout, values: ["\(k)"]) }
                // The server ends this session (as when it stops) before the import commits.
                try admin.execute("SELECT pg_terminate_backend($1::int)", [.integer(pid)])
                for k in 100..<200 { try writer.add(layoutID: layout, values: ["\(k)"]) }
                _ = try writer.recordAudit()
            }
        }
        #expect(error?.isConnectionFailure == true)
        let after = Store(backend: try PostgresBackend(url: database.url))
        #expect(try after.entryCount() == 0)
        #expect(try after.auditRecords().isEmpty)
        #expect(try after.auditReport().isValid)
    }
}
