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
}
