import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// Incremental runs: a run judges only what changed since each form's last complete run and
/// carries the other results forward; its rows, counts, history and digests are those of a
/// full run (`--all`) over the same data.
struct IncrementalValidationTests {
    /// A second form with a type of its own (`nick`), so that changing that type concerns
    /// one form only.
    static let contactForm = """
        form contact
        field nick   nick   required
        field email  email
        """
    static let nick = """
        field nick
        length 2...12
        pattern /[a-z]+/   message "Nicknames are lowercase letters"
        """
    static let contactColumns = ["nick", "email"]

    func fixture() throws -> ValidationFixture {
        let fixture = try ValidationFixture(extraTypes: ["nick": Self.nick])
        try Self.contactForm.write(to: fixture.folder.appendingPathComponent("contact.form"), atomically: true, encoding: .utf8)
        try fixture.reload()
        return fixture
    }

    /// Every result row of a run, by what it says rather than by ids of the run's own rules.
    func rows(_ fixture: ValidationFixture, _ run: FormularyStore.RunRecord) throws -> [String] {
        try fixture.store.results(ofRun: run.id).map { r in
            "\(r.entryID) v\(r.entryVersion) \(r.rule.form) \(r.rule.field ?? "-") \(r.rule.type ?? "-") "
                + "\(r.rule.rule) \(r.rule.severity.rawValue) \(r.rule.message)"
        }.sorted()
    }

    /// The rules a run recorded, by content (a full run has none that no entry failed).
    func rules(_ fixture: ValidationFixture, _ run: FormularyStore.RunRecord) throws -> [String] {
        try fixture.store.rules(ofRun: run.id).map {
            "\($0.form) \($0.field ?? "-") \($0.type ?? "-") \($0.rule) \($0.severity.rawValue) \($0.message)"
        }.sorted()
    }

    /// The incremental run `incremental` and a full run made right after it agree row by row,
    /// in counts per form, in every entry's history verdict, and the audit log verifies.
    func expectSameAsFullRun(_ fixture: ValidationFixture, _ incremental: FormularyStore.RunRecord,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let full = try fixture.validate(all: true)
        #expect(full.entriesCarried == 0, sourceLocation: sourceLocation)
        #expect(incremental.status == .complete, sourceLocation: sourceLocation)
        #expect(try rows(fixture, incremental) == rows(fixture, full), sourceLocation: sourceLocation)
        #expect(try rules(fixture, incremental) == rules(fixture, full), sourceLocation: sourceLocation)
        #expect(incremental.counts == full.counts, sourceLocation: sourceLocation)
        #expect(incremental.forms.map(\.counts) == full.forms.map(\.counts), sourceLocation: sourceLocation)
        #expect(incremental.forms.map(\.judgedThrough) == full.forms.map(\.judgedThrough), sourceLocation: sourceLocation)
        for entry in try fixture.store.entries() {
            let history = try fixture.store.runHistory(entryID: entry.id)
            let i = try #require(history.first { $0.run.id == incremental.id }, sourceLocation: sourceLocation)
            let f = try #require(history.first { $0.run.id == full.id }, sourceLocation: sourceLocation)
            let same = i.verdict == f.verdict && i.entryVersion == f.entryVersion
            let messages: [String] = i.results.map(\.rule.message), fullMessages: [String] = f.results.map(\.rule.message)
            #expect(same && messages == fullMessages, "entry \(entry.id)", sourceLocation: sourceLocation)
        }
        let verification = try fixture.store.auditReport()
        #expect(verification.isValid, "\(verification)", sourceLocation: sourceLocation)
    }

    func judged(_ run: FormularyStore.RunRecord, _ form: String) -> Int? {
        run.forms.first { $0.form == form }?.entriesJudged
    }

    @Test func incrementalRunsMatchFullRunsAfterNewEntriesNewVersionsAChangedTypeAndForm() throws {
        let fixture = try fixture()
        var sample = SampleRows(state: 12)
        try fixture.add(ValidationFixture.columns, (0..<60).map { _ in sample.row() })
        var keyed: [Int64] = []
        for k in 0..<10 {
            // Keyed sign-ups: even ones valid, odd ones invalid (age 17).
            var row = ValidationFixture.good
            if k % 2 == 1 { row[4] = "17" }
            if case .inserted(let id) = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", row) { keyed.append(id) }
        }
        try fixture.add(Self.contactColumns, [["ada", "ada@example.com"], ["Bob", nil], ["x", "x@example.com"],
                                              ["cyd", "not-an-email"]], form: "contact")
        let first = try fixture.validate()
        #expect(first.entriesCarried == 0 && first.forms.allSatisfy { $0.carriedFrom == nil })

        // Nothing changed: nothing is judged, everything is carried from the first run.
        let unchanged = try fixture.validate()
        #expect(unchanged.entriesJudged == 0 && unchanged.entriesCarried == 74)
        #expect(unchanged.forms.allSatisfy { $0.carriedFrom == first.id })
        try expectSameAsFullRun(fixture, unchanged)

        // New entries, and new versions of old ones: valid → invalid, invalid → valid, and
        // a changed value that stays invalid with another message.
        try fixture.add(ValidationFixture.columns, (0..<9).map { _ in sample.row() })
        var row = ValidationFixture.good
        row[4] = "16"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k0", row)     // valid → invalid
        _ = try fixture.upsert(ValidationFixture.columns, key: "k1", ValidationFixture.good)   // invalid → valid
        row[4] = "abc"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k3", row)     // invalid, another rule
        try fixture.add(Self.contactColumns, [["dee", "dee@example.com"]], form: "contact")
        let mixed = try fixture.validate()
        #expect(judged(mixed, "signup") == 9 + 3 && judged(mixed, "contact") == 1)
        #expect(mixed.entriesCarried == 74 - 3)
        try expectSameAsFullRun(fixture, mixed)

        // A changed type: only the form that uses it is judged again.
        try """
            field nick
            length 3...12
            pattern /[a-z]+/   message "Nicknames are lowercase letters"
            """.write(to: fixture.folder.appendingPathComponent("nick.field"), atomically: true, encoding: .utf8)
        try fixture.reload()
        let typeChanged = try fixture.validate()
        #expect(judged(typeChanged, "contact") == 5 && judged(typeChanged, "signup") == 0)
        #expect(typeChanged.forms.first { $0.form == "contact" }?.carriedFrom == nil)
        try expectSameAsFullRun(fixture, typeChanged)

        // A changed form: all of its entries are judged, the other form's are carried.
        try (ValidationFixture.form + "\nrequire phone when card   warning")
            .write(to: fixture.folder.appendingPathComponent("signup.form"), atomically: true, encoding: .utf8)
        try fixture.reload()
        let formChanged = try fixture.validate()
        #expect(judged(formChanged, "signup") == 79 && judged(formChanged, "contact") == 0)
        try expectSameAsFullRun(fixture, formChanged)
    }

    @Test func onlyEntriesOfFormsThatUseAChangedTypeAreJudged() throws {
        let fixture = try fixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good])
        try fixture.add(Self.contactColumns, [["ada", nil], ["b", nil], ["cyd", nil]], form: "contact")
        _ = try fixture.validate()
        try """
            field nick
            length 1...12
            """.write(to: fixture.folder.appendingPathComponent("nick.field"), atomically: true, encoding: .utf8)
        try fixture.reload()
        let run = try fixture.validate()
        #expect(judged(run, "contact") == 3, "every entry of the form that uses nick")
        #expect(judged(run, "signup") == 0, "no entry of a form that does not")
        #expect(run.forms.first { $0.form == "contact" }?.counts.entriesInvalid == 0, "'b' passes the new version")
        try expectSameAsFullRun(fixture, run)
    }

    @Test func interruptedRunsAreNoBaseForCarryingForward() throws {
        let fixture = try fixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let complete = try fixture.validate()
        // A run whose process died: it stays 'running' in the database and reads as incomplete.
        let dead = RunProcess(host: RunProcess.current.host, pid: Int64(Int32.max) - 7, start: "0")
        try fixture.store.transaction {
            let run = try fixture.store.insertRun(actor: "tester", today: "2026-11-29", process: dead)
            let form = try #require(complete.forms.first { $0.form == "signup" })
            try fixture.store.insertRunForm(runID: run.id, formID: form.formID, formVersionID: form.formVersionID,
                                            lastID: form.lastID)
            try fixture.store.runResultWriter(runID: run.id)
                .progress(formID: form.formID, judgedThrough: form.lastID, counts: RunCounts(entriesChecked: 1))
        }
        let next = try fixture.validate()
        #expect(next.forms.first { $0.form == "signup" }?.carriedFrom == complete.id, "not the dead run")

        // With only an interrupted run behind it, a form is judged in full.
        let other = try fixture.fixtureWithOnlyADeadRun()
        let run = try other.validate()
        #expect(run.entriesCarried == 0 && run.entriesJudged == 1)
    }

    @Test func formsWithUniqueRulesAreJudgedInFull() throws {
        let fixture = try ValidationFixture(form: """
            form signup
            field name   name    required
            field email  email
            unique email
            """)
        let ids = try fixture.add(["name", "email"], [["Ada", "ada@example.com"], ["Bob", "bob@example.com"]])
        let first = try fixture.validate()
        #expect(first.counts.entriesInvalid == 0)
        // A new duplicate makes the old, unchanged entry fail too.
        try fixture.add(["name", "email"], [["Cy", "ada@example.com"]])
        let second = try fixture.validate()
        #expect(second.entriesCarried == 0 && second.entriesJudged == 3)
        #expect(try fixture.store.results(ofRun: second.id).contains { $0.entryID == ids[0] && $0.rule.rule == "unique" })
        #expect(second.counts.entriesInvalid == 2)
    }

    @Test func aCarriedFormAndAUniqueFormInOneRun() throws {
        let fixture = try fixture()
        try """
            form roster
            field nick  nick  required
            unique nick
            """.write(to: fixture.folder.appendingPathComponent("roster.form"), atomically: true, encoding: .utf8)
        try fixture.reload()
        var sample = SampleRows(state: 5)
        try fixture.add(ValidationFixture.columns, (0..<30).map { _ in sample.row() })
        for k in 0..<4 { _ = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", ValidationFixture.good) }
        try fixture.add(["nick"], [["ada"], ["bob"], ["cyd"]], form: "roster")
        _ = try fixture.validate()
        // A changed entry that now fails (judged in the carried form's first batch, before the
        // scan), and a new duplicate in the unique form (its final batch, after the scan).
        var row = ValidationFixture.good
        row[4] = "17"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k2", row)
        try fixture.add(["nick"], [["ada"]], form: "roster")
        let run = try fixture.validate()
        #expect(judged(run, "signup") == 1 && judged(run, "roster") == 4)
        #expect(run.forms.first { $0.form == "roster" }?.counts.entriesInvalid == 2)
        try expectSameAsFullRun(fixture, run)
    }

    @Test func aFormWithManyChangedEntriesIsJudgedInFull() throws {
        let fixture = try fixture()
        func upsertAll(_ count: Int, age: String) throws {
            try fixture.store.transaction {
                let writer = try fixture.store.entryWriter(form: "signup", actor: "tester", source: "bulk.csv")
                let layout = try writer.layoutID(for: ValidationFixture.columns)
                var row = ValidationFixture.good
                row[4] = age
                for k in 0..<count { _ = try writer.upsert(key: "b\(k)", layoutID: layout, values: row) }
                _ = try writer.recordAudit()
            }
        }
        try upsertAll(1_200, age: "30")
        _ = try fixture.validate(batchSize: 500)
        // 1,001 of 1,200 changed: more than 1,000 and more than an eighth.
        try upsertAll(1_001, age: "31")
        let run = try fixture.validate(batchSize: 500)
        #expect(run.entriesCarried == 0 && run.entriesJudged == 1_200)
        // 1,000 changed: read by id, the other 200 carried.
        try upsertAll(1_000, age: "32")
        let next = try fixture.validate(batchSize: 500)
        #expect(next.entriesJudged == 1_000 && next.entriesCarried == 200)
        try expectSameAsFullRun(fixture, next)
    }

    @Test func anotherTodayJudgesFormsThatMeasureFromItInFull() throws {
        let fixture = try fixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        try fixture.add(Self.contactColumns, [["ada", nil]], form: "contact")
        _ = try fixture.validate()
        let nextDay = try fixture.validate(today: CivilDate(year: 2026, month: 11, day: 30))
        // signup's exp-date measures from today; contact's types do not.
        #expect(judged(nextDay, "signup") == 1 && judged(nextDay, "contact") == 0)
    }

    @Test func allJudgesEveryEntry() throws {
        let fixture = try fixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good])
        _ = try fixture.validate()
        let all = try fixture.validate(all: true)
        #expect(all.entriesJudged == 2 && all.entriesCarried == 0 && all.forms.allSatisfy { $0.carriedFrom == nil })
    }

    @Test func theCarriedCountsAreInTheRunsDigest() throws {
        let fixture = try fixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good])
        _ = try fixture.validate()
        let run = try fixture.validate()
        #expect(run.entriesCarried == 2)
        #expect(try fixture.store.auditRecords().last?.details.contains("\"entries_carried\":2") == true)
        #expect(try fixture.store.auditReport().isValid)
        // Edited outside formulary, the run no longer matches its audit record.
        try fixture.store.database.execute("UPDATE run_forms SET entries_carried = 0 WHERE run_id = ?", [.integer(run.id)])
        #expect(try !fixture.store.auditReport().isValid)
    }

    /// How many result rows run `run` holds itself (not those it shares).
    func ownRows(_ fixture: ValidationFixture, _ run: FormularyStore.RunRecord) throws -> Int64 {
        try fixture.store.database.scalarInt64("SELECT count(*) FROM run_results WHERE run_id = ?",
                                               [.integer(run.id)]) ?? -1
    }

    /// Runs that carry results forward share the rows of the last run that judged the form in
    /// full instead of copying them, also through a chain of incremental runs; they read like
    /// full runs, reading them does not change as later runs come, and their digests cover
    /// what they share.
    @Test func chainedIncrementalRunsShareTheFullRunsRowsAndReadLikeFullRuns() throws {
        let fixture = try fixture()
        var sample = SampleRows(state: 7)
        try fixture.add(ValidationFixture.columns, (0..<60).map { _ in sample.row() })
        var keyed: [Int64] = []
        for k in 0..<6 {
            var row = ValidationFixture.good
            if k % 2 == 1 { row[4] = "17" }
            if case .inserted(let id) = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", row) { keyed.append(id) }
        }
        try fixture.add(Self.contactColumns, [["ada", "ada@example.com"], ["Bob", nil], ["cyd", "not-an-email"]],
                        form: "contact")
        let first = try fixture.validate()
        #expect(try ownRows(fixture, first) > 20, "the sample must contain defects")

        // Nothing changed: no row is written, every form shares the first run's.
        let unchanged = try fixture.validate()
        #expect(try ownRows(fixture, unchanged) == 0)
        #expect(unchanged.forms.allSatisfy { $0.sharesFrom == first.id && $0.carriedFrom == first.id })
        #expect(try rows(fixture, unchanged) == rows(fixture, first))

        // k1 (invalid) becomes valid: judged again, listed as such, and its old rows not read.
        _ = try fixture.upsert(ValidationFixture.columns, key: "k1", ValidationFixture.good)
        let one = try fixture.validate()
        #expect(one.forms.allSatisfy { $0.sharesFrom == first.id && $0.carriedFrom == unchanged.id })
        #expect(try fixture.store.backend.rejudgedEntryIDs(ofRun: one.id, formID: one.forms[1].formID) == [keyed[1]])
        #expect(try fixture.store.results(ofRun: one.id).allSatisfy { $0.entryID != keyed[1] })
        let readOne = try rows(fixture, one), readUnchanged = try rows(fixture, unchanged)

        // k0 (valid) becomes invalid and new entries come: the base (`one`) shares too, so
        // this run shares the first run's rows as well and takes over `one`'s judged entries.
        var row = ValidationFixture.good
        row[4] = "16"
        _ = try fixture.upsert(ValidationFixture.columns, key: "k0", row)
        try fixture.add(ValidationFixture.columns, (0..<5).map { _ in sample.row() })
        let two = try fixture.validate()
        #expect(two.forms.allSatisfy { $0.sharesFrom == first.id && $0.carriedFrom == one.id })
        #expect(try fixture.store.backend.rejudgedEntryIDs(ofRun: two.id, formID: two.forms[1].formID)
                == [keyed[0], keyed[1]])
        #expect(try fixture.store.results(ofRun: two.id).contains { $0.entryID == keyed[0] })

        // Again nothing changed: this run holds copies of `two`'s own rows only.
        let three = try fixture.validate()
        #expect(try ownRows(fixture, three) == ownRows(fixture, two))
        #expect(three.entriesJudged == 0)
        #expect(try rows(fixture, one) == readOne && rows(fixture, unchanged) == readUnchanged)
        try expectSameAsFullRun(fixture, three)

        // The entries judged again are in the run's digest: dropping one is noticed.
        try fixture.store.database.execute("DELETE FROM run_rejudged WHERE run_id = ? AND entry_id = ?",
                                           [.integer(three.id), .integer(keyed[1])])
        let report = try fixture.store.auditReport()
        #expect(!report.isValid)
        #expect(report.problems.contains { $0.message.contains("run \(three.id)") }, "\(report.problems)")
    }

    @Test func idsBecomeRanges() {
        let ranges = ValidationRun.ranges(of: [3, 4, 5, 9, 11, 12])
        #expect(ranges.map { [$0.afterID, $0.throughID] } == [[2, 5], [8, 9], [10, 12]])
    }
}

extension ValidationFixture {
    /// Loads the plugin folder again (after a test rewrote a file in it).
    func reload() throws {
        registry = try Registry.load(folders: [PluginFolder(path: folder.path, origin: .option)])
    }

    /// Another fixture with one entry and, as its only run, one whose process died.
    func fixtureWithOnlyADeadRun() throws -> ValidationFixture {
        let other = try ValidationFixture()
        try other.add(ValidationFixture.columns, [ValidationFixture.good])
        let dead = RunProcess(host: RunProcess.current.host, pid: Int64(Int32.max) - 7, start: "0")
        try other.store.transaction {
            let run = try other.store.insertRun(actor: "tester", today: "2026-11-29", process: dead)
            let formID = try other.store.ensureFormID(named: "signup")
            let version = try other.store.recordVersion(.form, name: "signup", source: "form signup", origin: "test",
                                                        actor: "tester")
            try other.store.insertRunForm(runID: run.id, formID: formID, formVersionID: version.id, lastID: 1)
            // It got to the end of its entries, and still is no base: it never completed.
            try other.store.runResultWriter(runID: run.id)
                .progress(formID: formID, judgedThrough: 1, counts: RunCounts(entriesChecked: 1))
        }
        return other
    }
}
