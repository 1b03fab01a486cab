import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// A temporary database with a small form whose entries are keyed, validated for real.
final class ReportDatabase {
    let folder: URL
    let store: Store
    let registry: Registry

    static let form = """
        form shop
        field name   name          required
        field email  email
        field card   credit-card
        field cvv    cvv
        """
    static let columns = ["name", "email", "card", "cvv"]
    static let goodCard = "4111 1111 1111 1111"
    static let badCard = "4111 1111 1111 1112"
    /// A key that is also the entry's (secure) cvv: reports must never print it.
    static let secretKey = "737"

    /// - Parameters:
    ///   - form: the source of the form `shop` (the columns stay the same).
    ///   - makeStore: opens the database (given the folder): a SQLite file there when nil.
    init(form: String = ReportDatabase.form, makeStore: ((URL) throws -> Store)? = nil) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try form.write(to: folder.appendingPathComponent("shop.form"), atomically: true, encoding: .utf8)
        store = try makeStore?(folder) ?? Store(path: folder.appendingPathComponent("test.db").path)
        try store.migrate()
        registry = try Registry.load(folders: [PluginFolder(path: folder.path, origin: .option)])
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Keyed import: inserts, or updates the entry with that key. Returns the entry id.
    @discardableResult
    func put(_ key: String, _ values: [String?], columns: [String] = ReportDatabase.columns,
             line: Int? = nil) throws -> Int64 {
        try store.transaction {
            let writer = try store.entryWriter(form: "shop", actor: "tester", source: "test.csv")
            return try writer.upsert(key: key, layoutID: writer.layoutID(for: columns), values: values, line: line).id
        }
    }

    @discardableResult
    func validate() throws -> FormularyStore.RunRecord {
        let options = ValidationOptions(today: CivilDate(year: 2026, month: 11, day: 29), actor: "tester",
                                        batchSize: 2, workers: 1)
        return try ValidationRun(store: store, registry: registry, options: options).run()
    }

    /// Two runs: entry a-2 is fixed between them, a-4 breaks, a-5 is new and bad, and the
    /// entry keyed by its own cvv fails both times.
    static func twoRuns() throws -> (ReportDatabase, first: FormularyStore.RunRecord, second: FormularyStore.RunRecord, ids: [String: Int64]) {
        let db = try ReportDatabase()
        var ids: [String: Int64] = [:]
        ids["a-1"] = try db.put("a-1", ["Ada", "ada@example.com", goodCard, "123"])
        ids["a-2"] = try db.put("a-2", ["Bob", "bob@example.com", badCard, "123"])
        ids[secretKey] = try db.put(secretKey, ["Cy", "not an email", badCard, secretKey])
        ids["a-4"] = try db.put("a-4", ["Di", "di@example.com", goodCard, "123"])
        let first = try db.validate()
        try db.put("a-2", ["Bob", "bob@example.com", goodCard, "123"])
        try db.put("a-4", ["Di", "di@example.com", badCard, "123"])
        ids["a-5"] = try db.put("a-5", ["Ed", "ed@example.com", "4111", "123", "ed"],
                                columns: columns + ["nickname"])
        let second = try db.validate()
        return (db, first, second, ids)
    }
}

@Suite struct ReportLoadingTests {
    @Test func theNewestRunWithItsFactsFailuresAndTypeVersions() throws {
        let (db, _, second, ids) = try ReportDatabase.twoRuns()
        let report = try RunReport.load(from: db.store)
        #expect(report.facts.runID == second.id)
        #expect(report.facts.status == "complete")
        #expect(report.facts.actor == "tester")
        #expect(report.facts.today == "2026-11-29")
        #expect(report.facts.entriesChecked == 5)
        #expect(report.facts.entriesFailing == 3)
        #expect(report.facts.errors == report.failures.filter { $0.severity == .error }.count)
        #expect(report.facts.warnings == 1)
        #expect(report.scope == nil)
        #expect(report.forms.map(\.name) == ["shop"])
        #expect(report.forms[0].version == Registry.version(of: db.registry.forms["shop"]!.form!))

        let failing = Set(report.failures.map(\.entry.id))
        #expect(failing == [ids[ReportDatabase.secretKey]!, ids["a-4"]!, ids["a-5"]!])
        let luhn = try #require(report.failures.first { $0.entry.id == ids["a-4"]! })
        #expect(luhn.field == "card")
        #expect(luhn.rule == "luhn")
        #expect(luhn.type == "credit-card")
        guard case .success(let card)? = db.registry.definition(named: "credit-card") else {
            Issue.record("credit-card does not resolve"); return
        }
        #expect(luhn.typeVersion == Registry.version(of: card))
        #expect(report.typeVersions.contains { $0.name == "credit-card" && $0.version == Registry.version(of: card) })
        #expect(report.typeVersions.map(\.name) == report.typeVersions.map(\.name).sorted())
        let unknown = try #require(report.failures.first { $0.rule == "unknown-field" })
        #expect(unknown.field == "nickname" && unknown.severity == .warning && unknown.type == nil)
        #expect(report.groups(by: .type).contains { $0.key == ReportGroup.noType })
    }

    @Test func theComparisonWithThePreviousRunOfTheForm() throws {
        let (db, first, _, ids) = try ReportDatabase.twoRuns()
        let report = try RunReport.load(from: db.store)
        let c = try #require(report.comparisons.first)
        #expect(c.form == "shop")
        #expect(c.previousRunID == first.id)
        #expect(c.newlyFailing.map(\.entry.id) == [ids["a-4"]!, ids["a-5"]!])
        #expect(c.newlyFailing.map(\.before) == [.passed, .notJudged])
        #expect(c.fixed.map(\.id) == [ids["a-2"]!])
        #expect(c.fixed.first?.key == "a-2")

        let earlier = try RunReport.load(run: first.id, from: db.store)
        #expect(earlier.comparisons.first?.previousRunID == nil)
        #expect(earlier.comparisons.first?.newlyFailing.count == 2)
    }

    @Test func keysAreShownExceptOneThatIsASecureValue() throws {
        let (db, _, _, ids) = try ReportDatabase.twoRuns()
        let report = try RunReport.load(from: db.store)
        let secret = try #require(report.failures.first { $0.entry.id == ids[ReportDatabase.secretKey]! })
        #expect(secret.entry.keyIsSecure)
        #expect(secret.entry.displayKey == "•••")
        #expect(report.failures.first { $0.entry.id == ids["a-4"]! }?.entry.displayKey == "a-4")
        for grouping in ReportGrouping.allCases {
            let outputs = [report.text(by: grouping), String(decoding: report.json(by: grouping), as: UTF8.self),
                           report.csv(by: grouping), report.html(by: grouping)]
            for (i, output) in outputs.enumerated() {
                #expect(!output.contains("#\(ids[ReportDatabase.secretKey]!) \(ReportDatabase.secretKey)"))
                #expect(!output.contains(">\(ReportDatabase.secretKey)<"))
                #expect(!output.contains(",\(ReportDatabase.secretKey),"))
                #expect(!output.contains("\"\(ReportDatabase.secretKey)\""))
                // Text names entries only when grouped by entry; the others list every failure.
                if i > 0 || grouping == .entry { #expect(output.contains("•••")) }
            }
        }
    }

    @Test func formNarrowsAndPicksThatFormsNewestRun() throws {
        let (db, first, second, _) = try ReportDatabase.twoRuns()
        let narrowed = try RunReport.load(form: "shop", from: db.store)
        #expect(narrowed.facts.runID == second.id)
        #expect(narrowed.scope == "shop")
        let chosen = try RunReport.load(run: first.id, form: "shop", from: db.store)
        #expect(chosen.facts.runID == first.id)
        #expect(chosen.facts.entriesChecked == 4)
        #expect(chosen.facts.entriesFailing == 2)
    }

    @Test func unknownRunsAndFormsAreReported() throws {
        let empty = try ReportDatabase()
        #expect(throws: RunReportError.noRuns) { try RunReport.load(from: empty.store) }
        let (db, first, _, _) = try ReportDatabase.twoRuns()
        #expect(throws: RunReportError.noSuchRun(999)) { try RunReport.load(run: 999, from: db.store) }
        #expect(throws: RunReportError.noRunOfForm("nope")) { try RunReport.load(form: "nope", from: db.store) }
        #expect(throws: RunReportError.formNotInRun(run: first.id, form: "nope", forms: ["shop"])) {
            try RunReport.load(run: first.id, form: "nope", from: db.store)
        }
        #expect(RunReportError.formNotInRun(run: 1, form: "x", forms: ["shop"]).description
                == "run 1 did not judge form 'x'; it judged: shop")
    }

    @Test func reportFilesAreWrittenWholeOrNotAtAll() throws {
        let db = try ReportDatabase()
        let path = db.folder.appendingPathComponent("r.html").path
        try ReportFile.write(Array("<p>one</p>".utf8), to: path)
        try ReportFile.write(Array("<p>two</p>".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "<p>two</p>")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: db.folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
        let missing = try #require(throws: OutputFileError.self) {
            try ReportFile.write([1], to: db.folder.appendingPathComponent("no/such/folder/r.html").path)
        }
        #expect(missing.isBadPath && missing.reason.hasSuffix("/no/such/folder does not exist"), "\(missing)")
        let folder = try #require(throws: OutputFileError.self) { try ReportFile.write([1], to: db.folder.path) }
        #expect(folder.isBadPath && folder.reason == "is a folder, not a file", "\(folder)")
        // A link to a file is followed: the link stays, the file it names gets the report.
        let target = db.folder.appendingPathComponent("target.html").path
        let link = db.folder.appendingPathComponent("link.html").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try ReportFile.write(Array("<p>three</p>".utf8), to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "<p>three</p>")
        #expect(ReportFile.defaultHTMLName(run: 12) == "formulary-report-run-12.html")
    }
}
