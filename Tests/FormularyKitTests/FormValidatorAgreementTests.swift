import Foundation
import Testing
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// `FormValidator` (an app's values) and `formulary validate` (stored entries) run the same
/// judge: on the demo sign-ups they must give the same verdicts, rules and messages.
struct FormValidatorAgreementTests {
    @Test func demoSignupsJudgeAsTheValidationRunRecordedThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-agreement-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let demo = try Demo.run(in: folder.path, today: today, actor: "tester")
        let store = try Store(path: demo.databasePath)

        let formText = try #require(DemoFiles.files.first { $0.name == "signup.form" }?.text)
        let signup = try FieldCatalog.builtin(today: today).form(source: formText, file: "demo/signup.form")

        let recorded = try Self.recordedViolations(of: demo.run.id, in: store)
        let entries = try store.entries(form: demo.form)
        #expect(entries.count == 320)
        var verdicts: [EntryVerdict: Int] = [:]
        for entry in entries {
            var values: [String: String] = [:]
            for (field, value) in zip(entry.fields, entry.values) { values[field] = value }
            let result = signup.judge(values)
            let judged = result.violations.map { Self.line(field: $0.field, rule: $0.rule, severity: $0.severity, message: $0.message) }
            #expect(judged.sorted() == (recorded[entry.id] ?? []).sorted(), "entry \(entry.id): \(values)")
            #expect(result.verdict == EntryVerdict(violations: result.violations))
            verdicts[result.verdict, default: 0] += 1
        }
        // Every kind of outcome occurs in the sample, and the counts are the run's.
        let counts = demo.run.counts
        #expect(verdicts[.invalid] == counts.entriesInvalid && counts.entriesInvalid > 0)
        #expect(verdicts[.warnings] == counts.entriesWarned && counts.entriesWarned > 0)
        #expect(verdicts[.valid] == 320 - counts.entriesInvalid - counts.entriesWarned)
    }

    /// Two layouts (one with a column missing and an undeclared one), blank values, every
    /// kind of defect the sample rows plant: still the same violations, entry by entry.
    @Test func fixtureEntriesJudgeAsTheValidationRunRecordedThem() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 7)
        try fixture.add(ValidationFixture.columns, (0..<200).map { _ in sample.row() })
        try fixture.add(["email", "name", "age", "nickname", "card", "exp"], (0..<40).map { i in
            ["u\(i)@example.com", i % 9 == 0 ? nil : "Eve", String(15 + i), i % 2 == 0 ? "evie" : " ",
             "4111 1111 1111 1111", "01/27"]
        })
        let run = try fixture.validate()
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let signup = try FieldCatalog.builtin(today: today).form(source: ValidationFixture.form, file: "signup.form")

        let recorded = try Self.recordedViolations(of: run.id, in: fixture.store)
        var unknownSeen = 0
        for entry in try fixture.store.entries(form: "signup") {
            var values: [String: String] = [:]
            for (field, value) in zip(entry.fields, entry.values) { values[field] = value }
            let result = signup.judge(values)
            let judged = result.violations.map { Self.line(field: $0.field, rule: $0.rule, severity: $0.severity, message: $0.message) }
            #expect(judged.sorted() == (recorded[entry.id] ?? []).sorted(), "entry \(entry.id): \(values)")
            if result.unknownFields == ["nickname"] { unknownSeen += 1 }
        }
        #expect(unknownSeen == 40)
        #expect(recorded.count > 30)
    }

    /// `compare` is judged by the one judge: a run and `FormValidator` agree entry by entry
    /// on dates, numbers and text, with absent and invalid sides skipped.
    @Test func compareJudgesAsTheValidationRunRecordedIt() throws {
        let form = """
            form signup
            field starts iso-date required
            field ends   iso-date
            field until  exp-date(earliest: "today-12y")
            field age    age
            field limit  decimal
            field name   name
            field nick   name
            compare starts < ends   message "The end date must be after the start date"
            compare starts <= until as card-valid warning
            compare age >= limit
            compare name != nick
            """
        let fixture = try ValidationFixture(form: form)
        let columns = ["starts", "ends", "until", "age", "limit", "name", "nick"]
        var rows: [[String?]] = []
        let days = ["2026-03-01", "2026-03-02", "20260228", "2026-02-30", " ", nil]
        for i in 0..<216 {
            rows.append([days[i % 6], days[(i / 6) % 6], ["02/26", "03/26", "13/26", nil][i % 4],
                         ["30", "31", "x", nil][(i / 4) % 4], ["30.00", "30.5", "-1", "lots"][(i / 3) % 4],
                         ["Ada", " Ada ", "Bob"][i % 3], ["Ada", "Bob", nil][(i / 3) % 3]])
        }
        try fixture.add(columns, rows)
        let run = try fixture.validate()
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let signup = try FieldCatalog.builtin(today: today).form(source: form, file: "signup.form")

        let recorded = try Self.recordedViolations(of: run.id, in: fixture.store)
        var rulesSeen: Set<String> = []
        for entry in try fixture.store.entries(form: "signup") {
            var values: [String: String] = [:]
            for (field, value) in zip(entry.fields, entry.values) { values[field] = value }
            let result = signup.judge(values)
            let judged = result.violations.map { Self.line(field: $0.field, rule: $0.rule, severity: $0.severity, message: $0.message) }
            #expect(judged.sorted() == (recorded[entry.id] ?? []).sorted(), "entry \(entry.id): \(values)")
            rulesSeen.formUnion(result.formViolations.map(\.rule))
        }
        #expect(rulesSeen == ["compare", "card-valid"])
        #expect(recorded.values.joined().contains("ends|compare|error|The end date must be after the start date"))
        #expect(recorded.values.joined().contains("limit|compare|error|'age' must be at least 'limit'"))
        #expect(recorded.values.joined().contains("nick|compare|error|'name' must differ from 'nick'"))
    }

    /// One violation as the comparison reads it: `field|rule|severity|message`.
    static func line(field: String?, rule: String, severity: Severity, message: String) -> String {
        "\(field ?? "-")|\(rule)|\(severity.rawValue)|\(message)"
    }

    /// What a validation run stored, per entry id, as ``line(field:rule:severity:message:)``.
    static func recordedViolations(of runID: Int64, in store: Store) throws -> [Int64: [String]] {
        var recorded: [Int64: [String]] = [:]
        for result in try store.results(ofRun: runID) {
            let r = result.rule
            recorded[result.entryID, default: []].append(line(field: r.field, rule: r.rule, severity: r.severity, message: r.message))
        }
        return recorded
    }
}
