import Testing
@testable import FormularyStore

/// The SQLite writer buffers result rows and inserts them in groups of `rowsPerInsert`: no row may
/// be lost, doubled or written outside its batch's transaction.
@Suite struct RunResultWriterTests {
    let folder = TemporaryDirectory()

    private func makeRun(file: String = "runs.db") throws -> (Store, RunResultWriter, formID: Int64) {
        let store = try Store(path: folder.path(file))
        try store.migrate()
        let (runID, formID) = try store.transaction {
            (try store.insertRun(actor: "test", today: "2026-11-29").id, try store.ensureFormID(named: "signup"))
        }
        return (store, try store.runResultWriter(runID: runID), formID)
    }

    private func rows(_ store: Store, run: Int64) throws -> [[Int64]] {
        let statement = try store.database.makeStatement(
            "SELECT entry_id, rule_id, entry_version FROM run_results WHERE run_id = ? ORDER BY entry_id, rule_id")
        try statement.bind([.integer(run)])
        return try statement.map { [$0.int64(0), $0.int64(1), $0.int64(2)] }
    }

    @Test func everyRowOfABatchIsWrittenOnceWhateverItsSize() throws {
        let (store, writer, formID) = try makeRun()
        let size = SQLiteRunResultRowWriter.rowsPerInsert * 3 + 5   // full groups and a remainder
        let (a, b) = try store.transaction {
            (try writer.ruleID(formID: formID, field: "age", type: "age", rule: "range", severity: .error, message: "too old"),
             try writer.ruleID(formID: formID, field: "cvv", type: "cvv", rule: "mask", severity: .error, message: "3 digits"))
        }
        var expected: [[Int64]] = []
        try store.transaction {
            for entry in 1...Int64(size) {
                let rule = entry % 3 == 0 ? b : a
                try writer.add(entryID: entry, entryVersion: Int(entry % 4) + 1, ruleID: rule)
                expected.append([entry, rule, entry % 4 + 1])
            }
            // The same failed rule twice for an entry is kept once, across groups too.
            try writer.add(entryID: 1, entryVersion: 2, ruleID: a)
            try writer.progress(formID: formID, judgedThrough: Int64(size), counts: RunCounts())
        }
        #expect(try rows(store, run: writer.runID) == expected.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) })
    }

    /// Validation writes entries in id order, but the writer does not rely on it: rows that
    /// come after rows of higher entries give the digest of the rows as stored.
    @Test func entriesOutOfOrderGiveTheDigestOfTheStoredOrder() throws {
        // Each in a database of its own, so that the run and rule ids are the same.
        func digest(order: [Int64], keepRows: Bool = false) throws -> WrittenResults {
            let name = order.map(String.init).joined(separator: "-") + (keepRows ? "-kept" : "")
            let (store, writer, formID) = try makeRun(file: name + ".db")
            if keepRows { writer.keepRowsForDigest() }
            try store.transaction {
                let rule = try writer.ruleID(formID: formID, field: "age", type: "age", rule: "range",
                                             severity: .error, message: "too old")
                for entry in order { try writer.add(entryID: entry, entryVersion: 1, ruleID: rule) }
                try writer.progress(formID: formID, judgedThrough: 9, counts: RunCounts())
            }
            return try writer.writtenResults()
        }
        let inOrder = try digest(order: [1, 2, 5, 9])
        let outOfOrder = try digest(order: [2, 9, 1, 5])
        #expect(inOrder.count == 4 && outOfOrder.count == 4)
        #expect(inOrder.hash == outOfOrder.hash)
        // Rows kept in memory (no reading back) give the same digest, in either order.
        #expect(try digest(order: [2, 9, 1, 5], keepRows: true).hash == inOrder.hash)
        #expect(try digest(order: [1, 2, 5, 9], keepRows: true).hash == inOrder.hash)
        #expect(try digest(order: [2, 9, 1, 5, 9], keepRows: true).count == 4)   // an entry's rule twice: once
        #expect(try digest(order: [1, 2, 5]).hash != inOrder.hash)
    }

    @Test func rowsWaitForProgressAndRollBackWithTheirBatch() throws {
        let (store, writer, formID) = try makeRun()
        let rule = try store.transaction {
            try writer.ruleID(formID: formID, field: "name", type: "name", rule: "required", severity: .error, message: "m")
        }
        try store.transaction {
            for entry in 1...Int64(10) { try writer.add(entryID: entry, entryVersion: 1, ruleID: rule) }
            #expect(try rows(store, run: writer.runID).isEmpty)   // still pending
            try writer.progress(formID: formID, judgedThrough: 10, counts: RunCounts())
            #expect(try rows(store, run: writer.runID).count == 10)
        }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try store.transaction {
                for entry in 11...Int64(11 + SQLiteRunResultRowWriter.rowsPerInsert) {
                    try writer.add(entryID: entry, entryVersion: 1, ruleID: rule)
                }
                try writer.progress(formID: formID, judgedThrough: 100, counts: RunCounts())
                throw Stop()
            }
        }
        #expect(try rows(store, run: writer.runID).map { $0[0] } == Array(1...10))
    }
}
