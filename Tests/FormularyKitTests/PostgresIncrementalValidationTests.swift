import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// Incremental runs on PostgreSQL against SQLite: the same history of imports, keyed
/// updates, a changed type and runs (full, carried, mixed) gives the same rows, rule ids,
/// counts, carried entries and audit log on both kinds, and `audit verify` passes on both.
/// Needs `FORMULARY_TEST_POSTGRES_URL` (see docs/scale-out.md, "The test server").
struct PostgresIncrementalValidationTests {
    /// The fixture of ``IncrementalValidationTests`` (sign-up and contact forms), on SQLite
    /// or, given a database, on PostgreSQL.
    func fixture(_ postgres: ScratchPostgresDatabase?) throws -> ValidationFixture {
        var makeStore: ((URL) throws -> Store)?
        if let url = postgres?.url { makeStore = { _ in Store(backend: try PostgresBackend(url: url)) } }
        let fixture = try ValidationFixture(extraTypes: ["nick": IncrementalValidationTests.nick], makeStore: makeStore)
        try IncrementalValidationTests.contactForm.write(to: fixture.folder.appendingPathComponent("contact.form"),
                                                         atomically: true, encoding: .utf8)
        try fixture.reload()
        return fixture
    }

    /// One worker, so that rules get their ids in the same order on both kinds.
    func validate(_ fixture: ValidationFixture, all: Bool = false) throws -> FormularyStore.RunRecord {
        try fixture.validate(workers: 1, all: all)
    }

    /// Everything a run recorded, ids included (runs, rules and entries number alike on both).
    func transcript(_ fixture: ValidationFixture, _ run: FormularyStore.RunRecord) throws -> [String] {
        var lines = ["run \(run.id) \(run.status) \(run.counts) checked \(run.counts.entriesChecked) "
                     + "judged \(run.entriesJudged) carried \(run.entriesCarried)"]
        for form in run.forms {
            lines.append("form \(form.form) \(form.counts) last \(form.lastID) through \(form.judgedThrough) "
                         + "carried \(form.entriesCarried) from \(form.carriedFrom.map(String.init) ?? "-") "
                         + "shares \(form.sharesFrom.map(String.init) ?? "-")")
        }
        for rule in try fixture.store.rules(ofRun: run.id) {
            lines.append("rule \(rule.id) \(rule.form) \(rule.field ?? "-") \(rule.type ?? "-") \(rule.rule) "
                         + "\(rule.severity.rawValue) \(rule.message)")
        }
        for r in try fixture.store.results(ofRun: run.id) {
            lines.append("result \(r.entryID) v\(r.entryVersion) rule \(r.rule.id)")
        }
        return lines
    }

    /// The history: a full run, one with nothing changed, one after new entries and new
    /// versions, one after a changed type, and a full run at the end.
    func history(_ fixture: ValidationFixture) throws -> (runs: [FormularyStore.RunRecord], transcript: [String]) {
        var sample = SampleRows(state: 12)
        try fixture.add(ValidationFixture.columns, (0..<60).map { _ in sample.row() })
        for k in 0..<10 {
            var row = ValidationFixture.good
            if k % 2 == 1 { row[4] = "17" }
            _ = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", row)
        }
        try fixture.add(IncrementalValidationTests.contactColumns,
                        [["ada", "ada@example.com"], ["Bob", nil], ["x", "x@example.com"], ["cyd", "not-an-email"]],
                        form: "contact")
        var runs = [try validate(fixture), try validate(fixture)]

        try fixture.add(ValidationFixture.columns, (0..<9).map { _ in sample.row() })
        var row = ValidationFixture.good
        row[4] = "16"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k0", row)
        _ = try fixture.upsert(ValidationFixture.columns, key: "k1", ValidationFixture.good)
        row[4] = "abc"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k3", row)
        try fixture.add(IncrementalValidationTests.contactColumns, [["dee", "dee@example.com"]], form: "contact")
        runs.append(try validate(fixture))

        try """
            field nick
            length 3...12
            pattern /[a-z]+/   message "Nicknames are lowercase letters"
            """.write(to: fixture.folder.appendingPathComponent("nick.field"), atomically: true, encoding: .utf8)
        try fixture.reload()
        runs.append(try validate(fixture))
        runs.append(try validate(fixture, all: true))

        var lines = try runs.flatMap { try transcript(fixture, $0) }
        // Keyed digests differ by nature (each database has its own audit key): hex hashes out.
        let hex = try Regex("[0-9a-f]{64}")
        for record in try fixture.store.auditRecords() {
            lines.append("audit \(record.seq) \(record.action) \(record.subject) "
                         + record.details.replacing(hex, with: "#"))
        }
        let report = try fixture.store.auditReport()
        lines.append("verify \(report.isValid) \(report.problems.map(\.message))")
        return (runs, lines)
    }

    @Test(.needsPostgresServer) func incrementalRunsOnPostgreSQLMatchSQLite() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let sqlite = try history(try fixture(nil))
        let postgresFixture = try fixture(database)
        let postgres = try history(postgresFixture)
        // Line by line, so that a failure shows the first line that differs, not both transcripts.
        let difference = zip(postgres.transcript, sqlite.transcript).first { $0 != $1 }
        #expect(difference == nil, "first difference:\n  postgres \(difference?.0 ?? "")\n  sqlite   \(difference?.1 ?? "")")
        #expect(postgres.transcript.count == sqlite.transcript.count)
        #expect(sqlite.transcript.filter { $0.hasPrefix("result ") }.count > 300)

        // The runs did what they should: carried where nothing changed, judged what did.
        let runs = postgres.runs
        #expect(runs.count == 5 && runs.allSatisfy { $0.status == .complete })
        #expect(runs[0].entriesCarried == 0 && runs[1].entriesJudged == 0 && runs[1].entriesCarried == 74)
        #expect(runs[1].forms.allSatisfy { $0.carriedFrom == runs[0].id })
        #expect(runs[2].entriesCarried == 74 - 3 && runs[2].entriesJudged == 9 + 3 + 1)
        #expect(runs[3].forms.first { $0.form == "contact" }?.carriedFrom == nil)
        #expect(runs[3].forms.first { $0.form == "signup" }?.carriedFrom == runs[2].id)
        #expect(runs[3].counts == runs[4].counts && runs[4].entriesCarried == 0)
        // runs[3]'s sign-ups share runs[0]'s rows through runs[2], which shared them too.
        #expect(runs[2].forms.allSatisfy { $0.sharesFrom == runs[0].id })
        #expect(runs[3].forms.first { $0.form == "signup" }?.sharesFrom == runs[0].id)
        func read(_ run: FormularyStore.RunRecord) throws -> [String] {
            try postgresFixture.store.results(ofRun: run.id).map {
                "\($0.entryID) v\($0.entryVersion) \($0.rule.form) \($0.rule.field ?? "-") \($0.rule.rule) \($0.rule.message)"
            }
        }
        #expect(try read(runs[3]) == read(runs[4]))
        #expect(runs[1].counts.entriesInvalid > 0, "the sample must contain defects")
        #expect(postgres.transcript.last == "verify true []")

        // A carried count edited behind the store's back: the run no longer matches its record.
        let admin = try PostgresConnection(url: database.url)
        try admin.execute("UPDATE run_forms SET entries_carried = 0 WHERE run_id = $1", [.integer(runs[1].id)])
        #expect(try !postgresFixture.store.auditReport().isValid)
    }

    @Test(.needsPostgresServer) func anInterruptedRunIsNoBaseOnPostgreSQL() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let fixture = try fixture(database)
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good])
        let complete = try validate(fixture)
        // A run whose process died after judging every entry: still 'running', never a base.
        let dead = RunProcess(host: RunProcess.current.host, pid: Int64(Int32.max) - 7, start: "0")
        let form = try #require(complete.forms.first { $0.form == "signup" })
        let deadID = try fixture.store.transaction {
            let run = try fixture.store.insertRun(actor: "tester", today: "2026-11-29", process: dead)
            try fixture.store.insertRunForm(runID: run.id, formID: form.formID, formVersionID: form.formVersionID,
                                            lastID: form.lastID)
            try fixture.store.runResultWriter(runID: run.id)
                .progress(formID: form.formID, judgedThrough: form.lastID, counts: RunCounts(entriesChecked: 2))
            return run.id
        }
        #expect(try fixture.store.latestCompleteRun(formID: form.formID)?.id == complete.id)
        let next = try validate(fixture)
        #expect(next.id > deadID)
        #expect(next.forms.first { $0.form == "signup" }?.carriedFrom == complete.id, "not the dead run")
        #expect(next.entriesCarried == 2 && next.entriesJudged == 0)
        #expect(try fixture.store.auditReport().isValid)
    }
}
