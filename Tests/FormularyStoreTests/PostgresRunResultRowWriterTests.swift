import Foundation
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// The PostgreSQL result writer after ``RunResultWriter/promiseNewRows()`` (a shared run's
/// chunks): rows go as binary `COPY` without `ON CONFLICT`, so repeats within an entry are
/// dropped by the writer, and a row already stored fails its batch instead of being skipped.
struct PostgresRunResultRowWriterTests {
    /// A migrated store with one running run of form `signup`.
    private func makeRun(_ database: PostgresTestDatabase) throws -> (Store, RunResultWriter, formID: Int64) {
        let store = Store(backend: try PostgresBackend(url: database.url))
        try store.migrate(actor: "ann")
        _ = try store.addVersion(.type, name: "zip", source: "type zip\n  pattern \"\\d{5}\"\n", actor: "ann")
        _ = try store.addVersion(.form, name: "signup", source: "form signup\n  zip: zip\n", actor: "ann")
        let (runID, formID) = try store.transaction {
            let run = try store.insertRun(actor: "ann", today: "2026-12-01").id
            let form = try store.ensureFormID(named: "signup")
            let version = try #require(try store.currentVersion(.form, name: "signup"))
            try store.insertRunForm(runID: run, formID: form, formVersionID: version.id, lastID: 5000)
            try store.recordRunStart(id: run, actor: "ann")
            return (run, form)
        }
        return (store, try store.runResultWriter(runID: runID), formID)
    }

    private func rows(_ database: PostgresTestDatabase, run: Int64) throws -> [[Int64]] {
        try database.connect().execute("""
            SELECT entry_id, rule_id, entry_version FROM run_results WHERE run_id = $1 ORDER BY entry_id, rule_id
            """, [.integer(run)]).map { [try $0.int64(0), try $0.int64(1), try $0.int64(2)] }
    }

    @Test(.needsPostgres) func promisedRowsAreStoredOnceAndTheirDigestVerifies() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let (store, writer, formID) = try makeRun(database)
        var expected: [[Int64]] = []
        try store.transaction {
            let a = try writer.ruleID(formID: formID, field: "zip", type: "zip", rule: "pattern", severity: .error,
                                      message: "five digits")
            let b = try writer.ruleID(formID: formID, field: "zip", type: "zip", rule: "required", severity: .warning,
                                      message: "missing")
            // Rows added before the promise keep the insert that skips repeats.
            try writer.add(entryID: 1, entryVersion: 1, ruleID: a)
            expected.append([1, a, 1])
            writer.promiseNewRows()
            // More rows than one insert group; entry 3 fails both rules, the first one twice.
            for entry in 2...Int64(PostgresRunResultRowWriter.rowsPerInsert + 9) {
                try writer.add(entryID: entry, entryVersion: 2, ruleID: a)
                expected.append([entry, a, 2])
                if entry == 3 {
                    try writer.add(entryID: entry, entryVersion: 2, ruleID: b)
                    try writer.add(entryID: entry, entryVersion: 2, ruleID: a)
                    expected.append([entry, b, 2])
                }
            }
            try writer.progress(formID: formID, judgedThrough: 0, counts: RunCounts(entriesChecked: 1010, entriesInvalid: 1009,
                                                                                    errors: 1009, warnings: 1))
        }
        #expect(try rows(database, run: writer.runID) == expected.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
        // The writer's digest is the one the stored rows give: the run's end verifies.
        try store.finishRun(id: writer.runID, status: .complete, error: nil, actor: "ann",
                            written: try writer.writtenResults())
        #expect(try store.auditReport().isValid)
    }

    @Test(.needsPostgres) func aPromisedRowThatIsStoredAlreadyFailsItsBatch() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let (store, writer, formID) = try makeRun(database)
        let rule = try store.transaction {
            try writer.ruleID(formID: formID, field: "zip", type: "zip", rule: "pattern", severity: .error, message: "five digits")
        }
        try store.transaction {
            try writer.add(entryID: 7, entryVersion: 1, ruleID: rule)
            try writer.progress(formID: formID, judgedThrough: 7, counts: RunCounts(entriesChecked: 1, entriesInvalid: 1, errors: 1))
        }
        writer.promiseNewRows()
        // Entry 7's row again, between new ones: a broken promise, never a row written twice
        // nor a batch written in part.
        #expect(throws: (any Error).self) {
            try store.transaction {
                for entry: Int64 in [6, 7, 8] { try writer.add(entryID: entry, entryVersion: 1, ruleID: rule) }
                try writer.progress(formID: formID, judgedThrough: 8, counts: RunCounts(entriesChecked: 3, entriesInvalid: 3, errors: 3))
            }
        }
        #expect(try rows(database, run: writer.runID) == [[7, rule, 1]])
        #expect(try store.run(id: writer.runID)?.counts == RunCounts(entriesChecked: 1, entriesInvalid: 1, errors: 1))
    }
}
