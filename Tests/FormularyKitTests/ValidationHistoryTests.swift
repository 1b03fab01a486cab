import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

struct ValidationHistoryTests {
    @Test func historyOfPassingAndFailingEntriesAcrossKeyedUpdates() throws {
        let fixture = try ValidationFixture()
        let columns = ValidationFixture.columns   // the key is given apart from the values
        var bad = ValidationFixture.good
        bad[5] = "4111 1111 1111 1112"
        let good = try #require(try fixture.upsert(columns, key: "a", ValidationFixture.good).id as Int64?)
        let failing = try fixture.upsert(columns, key: "b", bad).id
        let first = try fixture.validate()
        // The failing entry is fixed by a keyed import; the passing one breaks.
        _ = try fixture.upsert(columns, key: "b", ValidationFixture.good)
        _ = try fixture.upsert(columns, key: "a", bad)
        let second = try fixture.validate()

        let goodHistory = try fixture.store.runHistory(entryID: good)
        #expect(goodHistory.map(\.run.id) == [first.id, second.id])
        #expect(goodHistory.map(\.verdict) == [.valid, .invalid])
        #expect(goodHistory.map(\.entryVersion) == [1, 2])
        #expect(goodHistory.map(\.isCurrentVersion) == [false, true])
        #expect(goodHistory[0].results.isEmpty)
        #expect(goodHistory[1].results.map(\.rule.rule) == ["luhn"])
        #expect(goodHistory[0].types.contains { $0.field == "card" && $0.version.name == "credit-card" })

        let failingHistory = try fixture.store.runHistory(entryID: failing)
        #expect(failingHistory.map(\.verdict) == [.invalid, .valid])
        #expect(failingHistory.map(\.entryVersion) == [1, 2])
        #expect(failingHistory[0].results.first?.rule.message == "Card number is not valid")

        let latest = try #require(try fixture.store.latestVerdict(entryID: good))
        #expect(latest.run.id == second.id && latest.verdict == .invalid)
        #expect(try fixture.store.failingEntryIDs(form: "signup") == [good])
        #expect(throws: StoreError.noSuchEntry(999)) { try fixture.store.runHistory(entryID: 999) }
    }

    @Test func entriesAddedAfterARunAreNotJudgedByIt() throws {
        let fixture = try ValidationFixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let run = try fixture.validate()
        let later = try fixture.add(ValidationFixture.columns, [ValidationFixture.good])[0]
        #expect(try fixture.store.runHistory(entryID: later).isEmpty)
        #expect(try fixture.store.latestVerdict(entryID: later) == nil)
        #expect(try fixture.store.run(id: run.id)?.forms[0].judgedThrough ?? 0 < later)
    }

    @Test func anErrorMidRunKeepsCommittedBatchesAndMarksTheRunIncomplete() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 3)
        let ids = try fixture.add(ValidationFixture.columns, (0..<50).map { _ in sample.row() })
        let complete = try fixture.validate(batchSize: 10)
        // Disk full on the third batch's progress marker.
        let progressUpdates = Counter()
        fixture.store.database.stepHook = { sql in
            guard sql.hasPrefix("UPDATE run_forms SET judged_through") else { return nil }
            return progressUpdates.next() == 3 ? 13 /* SQLITE_FULL */ : nil
        }
        // A full run (nothing changed, so an incremental one would judge no batch).
        #expect(throws: DatabaseError.self) { try fixture.validate(batchSize: 10, all: true) }
        fixture.store.database.stepHook = nil
        let runs = try fixture.store.runs()
        let broken = runs[0]
        #expect(broken.status == .incomplete && broken.recordedStatus == .incomplete)
        #expect(broken.error?.isEmpty == false && broken.endedAt != nil)
        #expect(broken.forms[0].judgedThrough == ids[0] + 19 && !broken.forms[0].isFinished)
        #expect(broken.counts.entriesChecked == 20, "only the two committed batches count")
        let judged = try fixture.store.results(ofRun: broken.id).map(\.entryID)
        #expect(judged.allSatisfy { $0 <= ids[0] + 19 })
        // The earlier run is untouched, and entry 30 was judged by it only.
        #expect(try fixture.store.run(id: complete.id)?.status == .complete)
        #expect(try fixture.store.runHistory(entryID: ids[29]).map(\.run.id) == [complete.id])
        #expect(try fixture.store.auditRecords().last?.details.contains("\"status\":\"incomplete\"") == true)
        #expect(try fixture.store.latestRun(completeOnly: true)?.id == complete.id)
    }

    @Test func aRunWhoseProcessDiedReadsIncompleteAndTheNextRunSaysSo() throws {
        let fixture = try ValidationFixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let host = RunProcess.current.host
        // A process that cannot exist (pids are below 2^22 on Linux) and one that is this
        // process's pid with another start time (a reused pid).
        for (pid, start) in [(Int64(Int32.max - 7), ""), (RunProcess.current.pid, "1")] {
            try fixture.store.database.execute("""
                INSERT INTO runs (started_at, actor, today, last_import, status, host, pid, process_start)
                VALUES ('2026-11-29T10:00:00.000Z', 'ghost', '2026-11-29', 0, 'running', ?, ?, ?)
                """, [.text(host), .integer(pid), .text(start)])
        }
        let ghosts = try fixture.store.runs()
        #expect(ghosts.allSatisfy { $0.status == .incomplete && $0.recordedStatus == .running })
        let run = try fixture.validate()
        let after = try fixture.store.runs()
        #expect(after.first?.id == run.id && run.status == .complete)
        #expect(after.dropFirst().allSatisfy { $0.recordedStatus == .incomplete && $0.error != nil })
        let validateRecords = try fixture.store.auditRecords().filter { $0.action == "validate" }
        #expect(validateRecords.count == 3, "one record per run, the dead ones included")
    }
}
