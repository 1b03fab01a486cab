import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// `impact`: proposed definitions judged against each entry's latest result, nothing written.
struct ImpactServiceTests {
    /// A stricter phone: area codes must start with 2 to 8.
    static let strictPhone = """
        field phone
        label "Phone"
        normalize strip " ()-."
        mask "(000) 000-0000"   message "Phone numbers have 10 digits, e.g. (555) 123-4567"
        pattern /\\([2-8].*/ as area-code   message "Area codes start with 2 to 8"
        accept "5551234567" formats "(555) 123-4567"
        reject "9161234567" area-code
        """

    static func workspace(_ fixture: ValidationFixture) -> Workspace {
        Workspace(settings: WorkspaceSettings(databasePath: fixture.folder.appendingPathComponent("test.db").path,
                                              pluginFolders: [PluginFolder(path: fixture.folder.path, origin: .option)],
                                              actor: "ada"))
    }

    static func proposal(_ fixture: ValidationFixture, _ name: String, _ text: String) throws -> String {
        let folder = fixture.folder.appendingPathComponent("proposed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let today = CivilDate(year: 2026, month: 11, day: 29)

    func row(phone: String?, age: String = "36") -> [String?] {
        var r = ValidationFixture.good
        r[3] = phone
        r[4] = age
        return r
    }

    @Test func comparesWithTheLatestResultsAndWritesNothing() throws {
        let fixture = try ValidationFixture()
        let ids = try fixture.add(ValidationFixture.columns, [
            row(phone: "(555) 123-4567"), row(phone: "(955) 123-4567"), row(phone: "(555) 123-4567", age: "17"),
            row(phone: "555-1234"), row(phone: nil),
        ])
        _ = try fixture.validate()
        // Imported after the run: no recorded result; judged with the current definitions too.
        let late = try fixture.add(ValidationFixture.columns, [row(phone: "(966) 123-4567"), row(phone: "(555) 123-4567", age: "16")])
        let phone = try Self.proposal(fixture, "phone.field", Self.strictPhone)
        let form = try Self.proposal(fixture, "signup.form", ValidationFixture.form.replacing("age(min: 18", with: "age(min: 16"))
        let db = fixture.folder.appendingPathComponent("test.db").path
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let auditBefore = try fixture.store.auditRecords().count
        var warned = false
        let report = try ImpactService(workspace: Self.workspace(fixture))
            .impact(files: [phone, form], today: Self.today, workers: 2) { _ in warned = true }
        #expect(!warned)
        #expect(report.forms == ["signup"])
        #expect(report.entriesChecked == 7)
        #expect(report.newlyFailing == 2, "\(report)")    // (955) and, never validated, (966)
        #expect(report.fixed == 2, "\(report)")           // age 17, and, never validated, age 16
        #expect(report.unchanged == 3)
        #expect(report.withoutResult == 2)
        let rules = Dictionary(uniqueKeysWithValues: report.rules.map { ("\($0.field ?? "-") \($0.rule)", ($0.newlyFailing, $0.fixed)) })
        #expect(rules["phone area-code"]! == (2, 0), "\(report.rules)")
        #expect(report.rules.contains { $0.field == "age" && $0.fixed == 2 && $0.newlyFailing == 0 }, "\(report.rules)")
        #expect(report.rules.first?.rule == "area-code", "most newly failing first")
        #expect(report.examples.filter { $0.rule == "area-code" }.map(\.entry) == [ids[1], late[0]])
        #expect(report.examples.contains { $0.field == "age" && $0.change == .fixed && $0.entry == ids[2] })
        // Nothing written: the file's bytes and the audit log are as they were.
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
        #expect(try fixture.store.auditRecords().count == auditBefore)
        #expect(try fixture.store.runs().count == 1)

        let json = String(decoding: report.jsonDocument, as: UTF8.self)
        #expect(json.hasPrefix(#"{"entries_checked":7,"newly_failing":2,"fixed":2,"unchanged":3,"rules":[{"field":"phone","rule":"area-code","newly_failing":2,"fixed":0},"#), "\(json)")
        #expect(json.contains(#"{"entry":\#(ids[1]),"field":"phone","rule":"area-code","change":"newly_failing"}"#), "\(json)")
    }

    @Test func theLatestRunOfEachEntryCountsAndOneWorkerAgreesWithMany() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 11)
        _ = try fixture.add(ValidationFixture.columns, (0..<120).map { _ in sample.row() })
        _ = try fixture.validate(batchSize: 9)
        // A later run judged only part of the entries (it failed after its first batches).
        let progress = Counter()
        fixture.store.database.stepHook = { sql in
            guard sql.hasPrefix("UPDATE run_forms SET judged_through") else { return nil }
            return progress.next() == 4 ? 13 : nil
        }
        #expect(throws: (any Error).self) { try fixture.validate(batchSize: 9, all: true) }
        fixture.store.database.stepHook = nil
        // Proposing the form as it is changes nothing: every entry is compared with its own
        // latest run, whichever it is, and agrees.
        let same = try Self.proposal(fixture, "signup.form", ValidationFixture.form + "\n# the same, with a comment\n")
        let service = ImpactService(workspace: Self.workspace(fixture))
        let none = try service.impact(files: [same], today: Self.today) { _ in }
        #expect(none.forms.isEmpty && none.entriesChecked == 0, "an unchanged form is not judged")

        let phone = try Self.proposal(fixture, "phone.field", Self.strictPhone.replacing("[2-8]", with: "[2-4]")
            .replacing(#"accept "5551234567" formats "(555) 123-4567""#, with: #"accept "2121234567" formats "(212) 123-4567""#))
        let one = try service.impact(files: [phone], today: Self.today, workers: 1) { _ in }
        let many = try service.impact(files: [phone], today: Self.today, workers: 3) { _ in }
        #expect(one.entriesChecked == 120 && one.withoutResult == 0)
        #expect(one.newlyFailing > 0)
        #expect(one.newlyFailing == many.newlyFailing && one.fixed == many.fixed && one.rules == many.rules
                && one.examples == many.examples)
        #expect(one.rules.map(\.rule) == ["area-code"], "only the proposed rule changes: \(one.rules)")
    }

    @Test func aBadProposalIsBadInputAndNothingIsJudged() throws {
        let fixture = try ValidationFixture()
        _ = try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let service = ImpactService(workspace: Self.workspace(fixture))
        let broken = try Self.proposal(fixture, "phone.field", "field phone\nmask \"(000\" frobnicate\n")
        do {
            _ = try service.impact(files: [broken], today: Self.today) { _ in }
            Issue.record("a broken file was accepted")
        } catch let error as ServiceError {
            #expect(error.kind == .badInput)
            #expect(error.message == "nothing was judged: the file has problems", "\(error.message)")
        }
        let failing = try Self.proposal(fixture, "phone2.field", Self.strictPhone + "\naccept \"9161234567\"\n")
        #expect(throws: ServiceError.self) { try service.impact(files: [failing], today: Self.today) { _ in } }
        let nothing = try Self.proposal(fixture, "notes.field", "# nothing here\n")
        do {
            _ = try service.impact(files: [nothing], today: Self.today) { _ in }
            Issue.record("a file declaring nothing was accepted")
        } catch let error as ServiceError {
            guard case .digest(let named, _) = error.details else { Issue.record("\(error.details)"); return }
            #expect(named.flatMap(\.diagnostics).contains { $0.location.line == 1 && $0.location.column == 1 && $0.severity == .error },
                    "\(named)")
        }
        // A form the proposed type breaks: its field passes an argument the type lacks.
        let noArgs = try Self.proposal(fixture, "age.field", "field age\nlabel \"Age\"\ninteger\naccept \"3\"\n")
        do {
            _ = try service.impact(files: [noArgs], today: Self.today) { _ in }
            Issue.record("a form the proposal breaks was judged")
        } catch let error as ServiceError {
            #expect(error.kind == .badInput)
            #expect(error.message.contains("form 'signup' cannot be used with the proposed files"), "\(error.message)")
        }
    }

    @Test func anEmptyStoreHasNothingToCompare() throws {
        let fixture = try ValidationFixture()
        let phone = try Self.proposal(fixture, "phone.field", Self.strictPhone)
        let report = try ImpactService(workspace: Self.workspace(fixture)).impact(files: [phone], today: Self.today) { _ in }
        #expect(report.entriesChecked == 0 && report.forms.isEmpty && report.rules.isEmpty)
        #expect(String(decoding: report.jsonDocument, as: UTF8.self)
                == #"{"entries_checked":0,"newly_failing":0,"fixed":0,"unchanged":0,"rules":[],"examples":[]}"# + "\n")
    }

    @Test func uniqueResultsAreCarriedOver() throws {
        let fixture = try ValidationFixture(form: ValidationFixture.form + "\nunique email\n")
        let ids = try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good, row(phone: "(955) 123-4567")])
        _ = try fixture.validate()
        let phone = try Self.proposal(fixture, "phone.field", Self.strictPhone)
        let report = try ImpactService(workspace: Self.workspace(fixture)).impact(files: [phone], today: Self.today) { _ in }
        // The third entry shares the email too: it was invalid already (unique), so it is
        // not newly failing, though its area code now fails.
        #expect(report.entriesChecked == 3 && report.newlyFailing == 0 && report.fixed == 0, "\(report)")
        #expect(report.rules.map(\.rule) == ["area-code"], "\(report.rules)")
        #expect(report.examples.map(\.entry) == [ids[2]])
    }

    /// What `impact` predicts is what a run with the proposal added finds, entry by entry and
    /// rule by rule.
    @Test func agreesWithARunAfterAddingTheProposal() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 5)
        let rows: [[String?]] = (0..<300).map { i in
            var r = sample.row()
            if i % 7 == 0 { r[3] = "(955) 123-4567" }
            return r
        }
        _ = try fixture.add(ValidationFixture.columns, rows)
        let first = try fixture.validate()
        let phone = try Self.proposal(fixture, "phone.field", Self.strictPhone)
        let form = try Self.proposal(fixture, "signup.form", ValidationFixture.form.replacing("age(min: 18", with: "age(min: 16"))
        let report = try ImpactService(workspace: Self.workspace(fixture)).impact(files: [phone, form], today: Self.today) { _ in }

        fixture.registry = try Registry.load(folders: [PluginFolder(path: fixture.folder.path, origin: .option),
                                                       PluginFolder(path: fixture.folder.appendingPathComponent("proposed").path,
                                                                    origin: .option)])
        let second = try fixture.validate()
        let formID = try #require(try fixture.store.formID(named: "signup"))
        let invalidBefore = Set(try fixture.store.invalidEntryIDs(ofRun: first.id, formID: formID))
        let invalidAfter = Set(try fixture.store.invalidEntryIDs(ofRun: second.id, formID: formID))
        #expect(report.entriesChecked == 300)
        #expect(report.newlyFailing == invalidAfter.subtracting(invalidBefore).count)
        #expect(report.fixed == invalidBefore.subtracting(invalidAfter).count)
        #expect(report.newlyFailing > 0 && report.fixed > 0, "\(report)")

        func failed(_ run: Int64) throws -> Set<String> {
            Set(try fixture.store.results(ofRun: run).map { "\($0.entryID) \($0.rule.field ?? "-") \($0.rule.rule)" })
        }
        let before = try failed(first.id), after = try failed(second.id)
        var expected: [String: (newly: Int, fixed: Int)] = [:]
        for item in after.subtracting(before) { expected[String(item.split(separator: " ", maxSplits: 1)[1]), default: (0, 0)].newly += 1 }
        for item in before.subtracting(after) { expected[String(item.split(separator: " ", maxSplits: 1)[1]), default: (0, 0)].fixed += 1 }
        let predicted = Dictionary(uniqueKeysWithValues: report.rules.map { ("\($0.field ?? "-") \($0.rule)", ($0.newlyFailing, $0.fixed)) })
        #expect(predicted.count == expected.count, "\(predicted) vs \(expected)")
        for (key, counts) in expected {
            #expect(predicted[key]?.0 == counts.newly && predicted[key]?.1 == counts.fixed, "\(key): \(String(describing: predicted[key])) vs \(counts)")
        }
    }
}
