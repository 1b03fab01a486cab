import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// Imports on PostgreSQL: new entries go through COPY, held back until the connection's next
/// statement. Nothing held back may be lost (a commit, a read, another writer, a size limit
/// sends it), nothing rolled back may arrive later, and ids grow in the order entries were
/// written, keyed or not, one more than the highest, as on SQLite.
struct PostgresImportTests {
    func postgresStore() throws -> (PostgresTestDatabase, Store, PostgresBackend) {
        let database = try PostgresTestDatabase()
        let backend = try PostgresBackend(url: database.url)
        let store = Store(backend: backend)
        try store.migrate()
        return (database, store, backend)
    }

    /// Unkeyed entries with a keyed one every 1,000 (each takes its id from the table), large
    /// enough values that the held-back rows pass the size limit mid-import.
    static func importMixed(_ store: Store, count: Int) throws -> [Int64] {
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "ann", source: "big.csv")
            let layout = try writer.layoutID(for: ["name", "note"])
            let note = String(repeating: "x", count: 480)
            var ids: [Int64] = []
            for k in 0..<count {
                if k % 1000 == 999 {
                    ids.append(try writer.upsert(key: "key\(k)", layoutID: layout, values: ["keyed \(k)", nil]).id)
                } else {
                    ids.append(try writer.add(layoutID: layout, values: ["n\(k)", note]))
                }
            }
            _ = try writer.recordAudit()
            return ids
        }
    }

    @Test(.needsPostgres) func aLargeImportArrivesWholeInOrderAndVerifies() throws {
        let (database, store, _) = try postgresStore()
        defer { withExtendedLifetime(database) {} }
        let count = 20_000   // about 10 MB of values: more than one COPY
        let ids = try Self.importMixed(store, count: count)
        #expect(ids == ids.sorted() && Set(ids).count == count)
        #expect(try store.entryCount(form: "signup") == count)
        let stored = try store.entries(form: "signup")
        #expect(stored.map(\.id) == ids)
        #expect(stored[5]["name"] == "n5" && stored[999].key == "key999" && stored[999]["name"] == "keyed 999")
        let report = try store.auditReport()
        #expect(report.isValid, "\(report.problems.map(\.message))")

        // The same import on SQLite stores the same entries under the same ids.
        let folder = TemporaryDirectory()
        let sqlite = try Store(path: folder.path("big.db"))
        try sqlite.migrate()
        #expect(try Self.importMixed(sqlite, count: count) == ids)
    }

    @Test(.needsPostgres) func rowsOfARolledBackImportNeverArrive() throws {
        let (database, store, backend) = try postgresStore()
        defer { withExtendedLifetime(database) {} }
        #expect(throws: CancellationError.self) {
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "ann", source: "a.csv")
                let layout = try writer.layoutID(for: ["name"])
                for k in 0..<10 { try writer.add(layoutID: layout, values: ["n\(k)"]) }
                throw CancellationError()
            }
        }
        #expect(backend.connection.pending == nil)
        #expect(try store.entryCount() == 0)
        // The next import works, and takes the ids the rolled-back one gave back (as on SQLite).
        let ids = try Self.importMixed(store, count: 3)
        #expect(try store.entries().map(\.id) == ids)
        #expect(ids == [1, 2, 3])
    }

    @Test(.needsPostgres) func twoWritersInOneTransactionLoseNothing() throws {
        let (database, store, _) = try postgresStore()
        defer { withExtendedLifetime(database) {} }
        let ids = try store.transaction {
            let a = try store.entryWriter(form: "a", actor: "ann", source: "a.csv")
            let b = try store.entryWriter(form: "b", actor: "ann", source: "b.csv")
            let layout = try store.layoutID(for: ["v"])
            var ids: [Int64] = []
            for k in 0..<50 {
                ids.append(try a.add(layoutID: layout, values: ["a\(k)"]))
                ids.append(try b.add(layoutID: layout, values: ["b\(k)"]))
            }
            return ids
        }
        #expect(try store.entryCount(form: "a") == 50 && store.entryCount(form: "b") == 50)
        #expect(Set(try store.entries().map(\.id)) == Set(ids))
    }

    @Test(.needsPostgres) func rowsWrittenInAFailedSavepointGoWithIt() throws {
        let (database, store, _) = try postgresStore()
        defer { withExtendedLifetime(database) {} }
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "ann", source: "a.csv")
            let layout = try writer.layoutID(for: ["name"])
            try writer.add(layoutID: layout, values: ["kept"])
            _ = try? store.transaction { () throws -> Void in
                try writer.add(layoutID: layout, values: ["dropped"])
                throw CancellationError()
            }
            try writer.add(layoutID: layout, values: ["kept too"])
        }
        #expect(try store.entries().map { $0["name"] } == ["kept", "kept too"])
    }
}
