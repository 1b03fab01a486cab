import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// A whole ``Store`` on PostgreSQL: types and forms, imports with keyed updates, a validation
/// run with more results than one insert group, and `audit verify` passing over all of it —
/// then failing when a row is changed behind the store's back. The same history is written on
/// SQLite, and both logs record the same actions.
struct PostgresStoreTests {
    static let clock = Date(timeIntervalSince1970: 1_796_083_200)

    /// Writes the history and returns the audit log's actions and subjects.
    static func history(_ store: Store) throws -> [String] {
        store.clock = { clock }
        try store.migrate(actor: "ann")
        try store.requireCurrentSchema()
        _ = try store.addVersion(.type, name: "zip", source: "type zip\n  pattern \"\\d{5}\"\n", actor: "ann")
        _ = try store.addVersion(.type, name: "cvv", source: "type cvv\n  secure\n  pattern \"\\d{3}\"\n", actor: "ann")
        _ = try store.addVersion(.form, name: "signup", source: "form signup\n  zip: zip\n", actor: "bo")
        _ = try store.retire(.type, name: "cvv", actor: "bo")
        for (source, rows) in [("a.csv", [("k1", "12345"), ("k2", "99999"), ("k3", "1")]),
                               ("b.csv", [("k2", "88888"), ("k3", "1"), ("k4", "2")])] {
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "cy", source: source)
                let layout = try writer.layoutID(for: ["zip"])
                for (key, zip) in rows { _ = try writer.upsert(key: key, layoutID: layout, values: [zip]) }
                _ = try writer.recordAudit()
            }
        }
        let (runID, formID) = try store.transaction {
            let run = try store.insertRun(actor: "dee", today: "2026-12-01").id
            let form = try store.ensureFormID(named: "signup")
            let version = try #require(try store.currentVersion(.form, name: "signup"))
            try store.insertRunForm(runID: run, formID: form, formVersionID: version.id, lastID: 4)
            try store.recordRunStart(id: run, actor: "dee")
            return (run, form)
        }
        let writer = try store.runResultWriter(runID: runID)
        try store.transaction {
            let rule = try writer.ruleID(formID: formID, field: "zip", type: "zip", rule: "pattern", severity: .error,
                                         message: "five digits")
            // More rows than one group of the PostgreSQL writer, one of them twice.
            for entry in 1...Int64(PostgresRunResultRowWriter.rowsPerInsert + 7) {
                try writer.add(entryID: entry, entryVersion: 1, ruleID: rule)
            }
            try writer.add(entryID: 3, entryVersion: 1, ruleID: rule)
            try writer.progress(formID: formID, judgedThrough: 4,
                                counts: RunCounts(entriesChecked: 4, entriesInvalid: 2, errors: 2))
        }
        try store.finishRun(id: runID, status: .complete, error: nil, actor: "dee", written: try writer.writtenResults())
        return try store.auditRecords().map { "\($0.seq) \($0.actor) \($0.action) \($0.subject)" }
    }

    @Test(.needsPostgres) func aWholeHistoryVerifiesOnPostgreSQLAsOnSQLite() throws {
        let folder = TemporaryDirectory()
        let sqlite = try Self.history(try Store(path: folder.path("history.db")))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let store = Store(backend: try PostgresBackend(url: database.url))
        let postgres = try Self.history(store)
        #expect(postgres == sqlite)
        #expect(postgres.count >= 8)

        let report = try store.auditReport()
        #expect(report.isValid, "\(report.problems.map(\.message))")
        #expect(try store.entry(id: 2)?.version == 2)
        #expect(try store.results(ofRun: 1).count == PostgresRunResultRowWriter.rowsPerInsert + 7)

        // A value changed outside formulary (the entries table has no guard): the import's
        // digest no longer matches.
        let admin = try database.connect()
        try admin.execute("UPDATE entries SET vals = $1 WHERE id = 1", [.bytes([1, 5, 0, 0x31, 0x32, 0x33, 0x34, 0x36])])
        let tampered = try store.auditReport()
        #expect(!tampered.isValid)
    }
}
