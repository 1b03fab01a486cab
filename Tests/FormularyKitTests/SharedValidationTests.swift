import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// Runs shared between processes on PostgreSQL (`validate --join`): workers on separate
/// connections claim chunks of one run, a chunk whose worker stopped is claimed again after
/// its lease, the run ends once, and its results are those of one process on SQLite — row by
/// row, entry ids alike. Needs `FORMULARY_TEST_POSTGRES_URL` (docs/scale-out.md, "The test server").
struct SharedValidationTests {
    /// A second form with a `unique` rule: judged by the starter alone, beside the chunks.
    static let memberForm = """
        form member
        field name   name   required
        field email  email  required
        unique email
        """

    /// The sign-up fixture plus the member form, on SQLite or on `postgres`.
    func fixture(_ postgres: ScratchPostgresDatabase?) throws -> ValidationFixture {
        var makeStore: ((URL) throws -> Store)?
        if let url = postgres?.url { makeStore = { _ in Store(backend: try PostgresBackend(url: url)) } }
        let fixture = try ValidationFixture(makeStore: makeStore)
        try Self.memberForm.write(to: fixture.folder.appendingPathComponent("member.form"), atomically: true, encoding: .utf8)
        try fixture.reload()
        return fixture
    }

    /// The same entries, with the same ids, in both databases: sign-ups with defects, keyed
    /// ones to update later, and members of whom some share an email.
    func load(_ fixture: ValidationFixture) throws {
        var sample = SampleRows(state: 7)
        try fixture.add(ValidationFixture.columns, (0..<150).map { _ in sample.row() })
        for k in 0..<6 { _ = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", ValidationFixture.good) }
        try fixture.add(["name", "email"], (0..<30).map { i in ["M\(i)", "m\(i % 11)@example.com"] }, form: "member")
        try fixture.add(ValidationFixture.columns, (0..<40).map { _ in sample.row() })
    }

    /// Changes for an incremental run: new entries and new versions of keyed ones.
    func change(_ fixture: ValidationFixture) throws {
        var sample = SampleRows(state: 99)
        try fixture.add(ValidationFixture.columns, (0..<25).map { _ in sample.row() })
        var row = ValidationFixture.good
        row[4] = "17"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k2", row)
    }

    func options(_ chunkSize: Int = 10, lease: Double = 30, all: Bool = false) -> ValidationOptions {
        ValidationOptions(today: CivilDate(year: 2026, month: 11, day: 29), actor: "tester", batchSize: 9, workers: 2,
                          carryForward: !all, chunkSize: chunkSize, leaseSeconds: lease)
    }

    /// A run's results as comparable lines: entry id and version, and the failed rule by
    /// content (rule ids are numbered in the order processes commit), sorted; then the counts.
    func rows(_ store: Store, _ run: FormularyStore.RunRecord) throws -> [String] {
        var lines = try store.results(ofRun: run.id).map { r in
            "\(r.entryID) v\(r.entryVersion) \(r.rule.form) \(r.rule.field ?? "-") \(r.rule.type ?? "-") "
                + "\(r.rule.rule) \(r.rule.severity.rawValue) \(r.rule.message)"
        }.sorted()
        lines.append("run \(run.status) \(run.counts) judged \(run.entriesJudged) carried \(run.entriesCarried)")
        for f in run.forms {
            lines.append("form \(f.form) \(f.counts) last \(f.lastID) through \(f.judgedThrough) carried \(f.entriesCarried)")
        }
        return lines
    }

    func expectSame(_ postgres: [String], _ sqlite: [String]) {
        let difference = zip(postgres, sqlite).first { $0 != $1 }
        #expect(difference == nil, "first difference:\n  shared  \(difference?.0 ?? "")\n  sqlite  \(difference?.1 ?? "")")
        #expect(postgres.count == sqlite.count)
    }

    @Test(.needsPostgresServer) func workersOnSeparateConnectionsShareARunWithOneProcesssResults() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let sqlite = try fixture(nil), postgres = try fixture(database)
        try load(sqlite)
        try load(postgres)

        var runs: [FormularyStore.RunRecord] = []
        var joined: [SharedWorkDone] = []
        let url = database.url
        for round in 0..<2 {
            if round == 1 {
                try change(sqlite)
                try change(postgres)
            }
            let single = try ValidationRun(store: sqlite.store, registry: sqlite.registry, options: options()).run()
            let starter = ValidationRun(store: postgres.store, registry: postgres.registry, options: options())
            var helper: Thread?
            let helperDone = DispatchSemaphore(value: 0)
            starter.shared = { runID in
                // One joiner takes three chunks before the starter claims any; another works
                // beside the starter on a thread of its own until none is left.
                do {
                    let first = ValidationJoin(store: Store(backend: try PostgresBackend(url: database.url)), runID: runID, workers: 2)
                    first.maxChunks = 3
                    joined.append(try first.run())
                } catch {
                    Issue.record("the first joiner failed: \(error)")
                }
                helper = Thread {
                    defer { helperDone.signal() }
                    do {
                        _ = try ValidationJoin(store: Store(backend: try PostgresBackend(url: url)), runID: runID,
                                               workers: 1).run()
                    } catch JoinError.runEnded(_, .complete, _) {
                        // It came after the starter had done the rest and ended the run: fine.
                    } catch {
                        Issue.record("the second joiner failed: \(error)")
                    }
                }
                helper?.start()
            }
            let shared = try starter.run()
            if helper != nil { helperDone.wait() }
            runs.append(shared)
            #expect(shared.status == .complete)
            expectSame(try rows(postgres.store, shared), try rows(sqlite.store, single))
        }
        #expect(joined.count == 2 && joined.allSatisfy { $0.chunks == 3 && $0.entries > 0 && $0.lost == 0 })
        #expect(runs[1].entriesCarried > 0, "the second run carries forward")
        #expect(runs[0].forms.contains { $0.form == "member" && $0.counts.entriesInvalid > 0 }, "unique found duplicates")
        // Each run ended once, and its digest is the one its rows give.
        let ends = try postgres.store.auditRecords().filter { $0.action == "validate" }
        #expect(ends.map(\.subject) == runs.map { String($0.id) })
        #expect(try postgres.store.auditReport().isValid)
    }

    @Test(.needsPostgresServer) func aChunkWhoseWorkerStoppedIsClaimedAgainAfterItsLease() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let sqlite = try fixture(nil), postgres = try fixture(database)
        try load(sqlite)
        try load(postgres)
        let single = try ValidationRun(store: sqlite.store, registry: sqlite.registry, options: options()).run()

        // A worker that claims a chunk and stops: it never judges, renews or commits it.
        let stopped = Store(backend: try PostgresBackend(url: database.url))
        var abandoned: RunChunk?
        let starter = ValidationRun(store: postgres.store, registry: postgres.registry, options: options(lease: 0.5))
        starter.shared = { runID in abandoned = try? stopped.claimRunChunk(runID: runID) }
        let shared = try starter.run()
        let chunk = try #require(abandoned)
        #expect(shared.status == .complete)
        expectSame(try rows(postgres.store, shared), try rows(sqlite.store, single))

        // The starter took the chunk over after its lease: claimed twice, committed once.
        let admin = try PostgresConnection(url: database.url)
        let claims = try admin.scalarInt64("SELECT claims FROM run_chunks WHERE run_id = $1 AND seq = $2",
                                           [.integer(shared.id), .int(chunk.seq)])
        #expect(claims == 2)
        #expect(try admin.scalarInt64("SELECT count(*) FROM run_chunk_commits WHERE run_id = $1 AND seq = $2",
                                      [.integer(shared.id), .int(chunk.seq)]) == 1)
        // The stopped worker coming back cannot write it a second time.
        let late = try stopped.transaction { try stopped.commitRunChunk(runID: shared.id, chunk, counts: RunCounts(entriesChecked: 1)) }
        #expect(!late)
        #expect(try stopped.renewRunChunk(runID: shared.id, chunk) == false)
        #expect(try postgres.store.run(id: shared.id)?.counts == single.counts)
        #expect(try postgres.store.auditReport().isValid)
    }

    @Test(.needsPostgresServer) func aRunEndsOnceAndOnlyARunningRunCanBeJoined() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try fixture(database)
        try load(postgres)
        let run = try ValidationRun(store: postgres.store, registry: postgres.registry, options: options()).run()
        #expect(run.status == .complete)
        #expect(try postgres.store.runChunkTally(runID: run.id).isFinished)

        // Ending it again changes nothing and says so.
        #expect(throws: StoreError.runEnded(run.id)) {
            try postgres.store.finishRun(id: run.id, status: .incomplete, error: "late", actor: "tester")
        }
        #expect(try postgres.store.run(id: run.id)?.status == .complete)
        #expect(try postgres.store.auditRecords().filter { $0.action == "validate" }.count == 1)

        #expect(throws: JoinError.runEnded(run.id, .complete, nil)) { try ValidationJoin(store: postgres.store, runID: run.id).run() }
        #expect(throws: JoinError.unknownRun(run.id + 5)) { try ValidationJoin(store: postgres.store, runID: run.id + 5).run() }

        // A running run whose starter no longer holds its snapshot (a finished transaction's id).
        let orphan = try postgres.store.transaction {
            try postgres.store.insertRun(actor: "tester", today: "2026-11-29").id
        }
        try postgres.store.shareRun(RunShare(runID: orphan, snapshot: "00000003-00000002-1", leaseSeconds: 30),
                                    chunks: [(0, 10)])
        #expect(throws: JoinError.starterGone(orphan)) { try ValidationJoin(store: postgres.store, runID: orphan).run() }
        #expect(try postgres.store.runChunkTally(runID: orphan).pending == 1, "nothing was claimed")

        // On SQLite there is nothing to join.
        let sqlite = try fixture(nil)
        #expect(throws: JoinError.needsServer) { try ValidationJoin(store: sqlite.store, runID: 1).run() }
    }

    @Test(.needsPostgresServer) func aClaimSkipsAChunkAnotherTransactionHoldsAndExpiredLeasesComeFree() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let store = Store(backend: try PostgresBackend(url: database.url))
        try store.migrate()
        let runID = try store.transaction { try store.insertRun(actor: "tester", today: "2026-11-29").id }
        try store.shareRun(RunShare(runID: runID, snapshot: "unused", leaseSeconds: 3600),
                           chunks: [(0, 10), (10, 20), (20, 30)])

        // Another process's claim in progress holds chunk 1's row: this claim takes chunk 2
        // without waiting for it.
        let other = try PostgresConnection(url: database.url)
        try other.executeScript("BEGIN")
        _ = try other.execute("SELECT seq FROM run_chunks WHERE run_id = $1 AND seq = 1 FOR UPDATE", [.integer(runID)])
        let second = try #require(try store.claimRunChunk(runID: runID))
        #expect((second.seq, second.afterID, second.throughID, second.claims) == (2, 10, 20, 1))
        try other.executeScript("ROLLBACK")
        let first = try #require(try store.claimRunChunk(runID: runID))
        let third = try #require(try store.claimRunChunk(runID: runID))
        #expect(first.seq == 1 && third.seq == 3)
        #expect(try store.claimRunChunk(runID: runID) == nil, "every chunk is held")
        #expect(try store.renewRunChunk(runID: runID, first))

        // A lease that ran out (set back by hand): the chunk comes free with a new token.
        _ = try other.execute("UPDATE run_chunks SET lease_until = clock_timestamp() - interval '1 second' WHERE run_id = $1 AND seq = 3",
                              [.integer(runID)])
        #expect(try store.runChunkTally(runID: runID).expired == 1)
        let retaken = try #require(try store.claimRunChunk(runID: runID))
        #expect(retaken.seq == 3 && retaken.claims == 2 && retaken.token != third.token)
        let late = try store.transaction { try store.commitRunChunk(runID: runID, third, counts: RunCounts()) }
        #expect(!late, "the old claim cannot commit")
        let committed = try store.transaction { try store.commitRunChunk(runID: runID, retaken, counts: RunCounts(entriesChecked: 4)) }
        #expect(committed)
        // Committed once: the second guard refuses a second row for the chunk even past the token.
        #expect(throws: PostgresError.self) {
            _ = try other.execute("""
                INSERT INTO run_chunk_commits (run_id, seq, claim_token, worker, done_at, entries_checked, entries_invalid,
                                               entries_warned, errors, warnings)
                VALUES ($1, 3, gen_random_uuid(), 'x', 'now', 1, 0, 0, 0, 0)
                """, [.integer(runID)])
        }
        let tally = try store.runChunkTally(runID: runID)
        #expect((tally.total, tally.done, tally.claimed, tally.committed.entriesChecked) == (3, 1, 2, 4))
    }
}
