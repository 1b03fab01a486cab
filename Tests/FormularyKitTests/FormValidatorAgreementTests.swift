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

        var recorded: [Int64: [String]] = [:]
        for result in try store.results(ofRun: demo.run.id) {
            let r = result.rule
            recorded[result.entryID, default: []].append("\(r.field ?? "-")|\(r.rule)|\(r.severity.rawValue)|\(r.message)")
        }
        let entries = try store.entries(form: demo.form)
        #expect(entries.count == 320)
        var verdicts: [EntryVerdict: Int] = [:]
        for entry in entries {
            var values: [String: String] = [:]
            for (field, value) in zip(entry.fields, entry.values) { values[field] = value }
            let result = signup.judge(values)
            let judged = result.violations.map { "\($0.field ?? "-")|\($0.rule)|\($0.severity.rawValue)|\($0.message)" }
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

        var recorded: [Int64: [String]] = [:]
        for result in try fixture.store.results(ofRun: run.id) {
            let r = result.rule
            recorded[result.entryID, default: []].append("\(r.field ?? "-")|\(r.rule)|\(r.severity.rawValue)|\(r.message)")
        }
        var unknownSeen = 0
        for entry in try fixture.store.entries(form: "signup") {
            var values: [String: String] = [:]
            for (field, value) in zip(entry.fields, entry.values) { values[field] = value }
            let result = signup.judge(values)
            let judged = result.violations.map { "\($0.field ?? "-")|\($0.rule)|\($0.severity.rawValue)|\($0.message)" }
            #expect(judged.sorted() == (recorded[entry.id] ?? []).sorted(), "entry \(entry.id): \(values)")
            if result.unknownFields == ["nickname"] { unknownSeen += 1 }
        }
        #expect(unknownSeen == 40)
        #expect(recorded.count > 30)
    }
}
