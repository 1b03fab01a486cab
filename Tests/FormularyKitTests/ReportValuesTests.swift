import Foundation
import Testing
import FormularyJSON
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// Reports show each failure's value (masked for secure fields) and where the entry came
/// from, count the most frequent failing values, compare counts with the previous run, and
/// do it all in the database: a loaded report's groups and orders agree with the same
/// failures grouped in memory.
@Suite struct ReportValuesTests {
    /// Run 1: a-2 (bad card, line 3) and s-1 (short cvv, secure) fail. Then a-2 is fixed by
    /// a second import (line 7) and a-3, a-4 get the same bad card. Run 2.
    static func database() throws -> (ReportDatabase, first: FormularyStore.RunRecord, second: FormularyStore.RunRecord, ids: [String: Int64]) {
        let db = try ReportDatabase()
        var ids: [String: Int64] = [:]
        let bad = ReportDatabase.badCard, good = ReportDatabase.goodCard
        ids["a-1"] = try db.put("a-1", ["Ada", "ada@example.com", good, "123"], line: 2)
        ids["a-2"] = try db.put("a-2", ["Bob", "bob@example.com", bad, "123"], line: 3)
        ids["s-1"] = try db.put("s-1", ["Sy", "sy@example.com", good, "98"], line: 4)
        let first = try db.validate()
        try db.put("a-2", ["Bob", "bob@example.com", good, "123"], line: 7)
        ids["a-3"] = try db.put("a-3", ["Cy", "cy@example.com", bad, "123"], line: 8)
        ids["a-4"] = try db.put("a-4", ["Di", "di@example.com", bad, "123"], line: 9)
        let second = try db.validate()
        return (db, first, second, ids)
    }

    /// The report with the fixture's registry (its form comes from a plugin folder; without
    /// it, no registry knows the form and every value counts as secret).
    static func load(_ db: ReportDatabase, run: Int64? = nil) throws -> RunReport {
        try RunReport.load(run: run, from: db.store, secureFields: SecureFields(store: db.store, registry: db.registry))
    }

    @Test func everyFailureCarriesItsValueAndSource() throws {
        let (db, _, _, ids) = try Self.database()
        let report = try Self.load(db)
        let luhn = try #require(report.failures.first { $0.entry.id == ids["a-3"]! && $0.rule == "luhn" })
        #expect(luhn.value == ReportDatabase.badCard)
        #expect(luhn.source == "test.csv:8")
        let cvv = try #require(report.failures.first { $0.entry.id == ids["s-1"]! })
        #expect(cvv.field == "cvv")
        #expect(cvv.value == RunReport.secureMask)
        #expect(cvv.source == "test.csv:4")
    }

    @Test func groupedByEntryEachRuleShowsItsValueAndTheEntryItsSource() throws {
        let (db, _, _, ids) = try Self.database()
        let report = try Self.load(db)
        let group = try #require(report.groups(by: .entry).first { $0.entry?.id == ids["a-3"]! })
        #expect(group.source == "test.csv:8")
        #expect(group.rulesWithValues == ["card.luhn \"\(ReportDatabase.badCard)\""])
        let text = report.text(by: .entry)
        #expect(text.contains("SOURCE"))
        #expect(text.contains("test.csv:8  card.luhn \"\(ReportDatabase.badCard)\""))
        #expect(text.contains("cvv.length \"•••\""))
    }

    @Test func aVersionWithoutALineShowsItsFileAlone() throws {
        let (db, _, _, ids) = try Self.database()
        // Versions written before migration 5 have no line.
        try db.store.database.execute("UPDATE entries SET source_line = NULL")
        let report = try Self.load(db)
        let luhn = try #require(report.failures.first { $0.entry.id == ids["a-3"]! })
        #expect(luhn.source == "test.csv")
    }

    @Test func aValueJudgedByASecureTypeVersionIsMasked() throws {
        let (db, _, second, ids) = try Self.database()
        // The registry says credit-card is not secure; the version that judged the card did.
        try db.store.database.execute("""
            UPDATE type_versions SET secure = 1 WHERE id IN (
              SELECT type_version_id FROM run_type_versions WHERE run_id = ? AND field = 'card')
            """, [.integer(second.id)])
        let report = try Self.load(db)
        let luhn = try #require(report.failures.first { $0.entry.id == ids["a-3"]! && $0.rule == "luhn" })
        #expect(luhn.value == RunReport.secureMask)
        #expect(report.topValues[.field]?["card"] == nil)
        #expect(!report.csv(by: .rule).contains(ReportDatabase.badCard))
    }

    @Test func theValueIsTheOneOfTheVersionJudged() throws {
        let (db, first, _, ids) = try Self.database()
        // Run 1 judged a-2's first version; it has been replaced since.
        let report = try Self.load(db, run: first.id)
        let luhn = try #require(report.failures.first { $0.entry.id == ids["a-2"]! && $0.rule == "luhn" })
        #expect(luhn.value == ReportDatabase.badCard)
        #expect(luhn.source == "test.csv:3")
    }

    @Test func secureValuesAppearInNoFormatAndNotAmongTheTopValues() throws {
        let (db, _, _, _) = try Self.database()
        let report = try Self.load(db)
        #expect(report.topValues[.field]?["cvv"] == nil)
        for grouping in ReportGrouping.allCases {
            let outputs = [report.text(by: grouping), String(decoding: report.json(by: grouping), as: UTF8.self),
                           report.csv(by: grouping), report.html(by: grouping)]
            for output in outputs {
                #expect(!output.contains("\"98\"") && !output.contains(",98,") && !output.contains(">98<"))
            }
        }
        let json = try JSONValue(parsing: report.json(by: .rule))
        let failures = try #require(json["failures"]?.arrayValue)
        #expect(failures.contains { $0["field"]?.stringValue == "cvv" && $0["value"]?.stringValue == "•••" })
        #expect(failures.allSatisfy { $0["source"]?.stringValue?.hasPrefix("test.csv:") == true })
    }

    @Test func theMostFrequentFailingValuesWithCounts() throws {
        let (db, _, _, _) = try Self.database()
        let report = try Self.load(db)
        #expect(report.topValues[.rule]?["luhn"] == [.init(value: ReportDatabase.badCard, count: 2)])
        #expect(report.topValues[.field]?["card"] == [.init(value: ReportDatabase.badCard, count: 2)])
        let text = report.text(by: .rule)
        #expect(text.contains("Most frequent failing values by rule"))
        #expect(text.contains("\"\(ReportDatabase.badCard)\" ×2"))
    }

    @Test func atMostTenValuesPerRuleMostFrequentFirst() throws {
        let db = try ReportDatabase()
        // Twelve distinct bad emails, one of them three times.
        for i in 0..<12 {
            try db.put("k\(i)", ["N", "bad\(i)", ReportDatabase.goodCard, "123"])
        }
        try db.put("k12", ["N", "bad5", ReportDatabase.goodCard, "123"])
        try db.put("k13", ["N", "bad5", ReportDatabase.goodCard, "123"])
        try db.validate()
        let report = try Self.load(db)
        let values = try #require(report.topValues[.field]?["email"])
        #expect(values.count == 10)
        #expect(values.first == .init(value: "bad5", count: 3))
        #expect(values.dropFirst().allSatisfy { $0.count == 1 })
    }

    @Test func countsAreComparedWithThePreviousRun() throws {
        let (db, first, _, _) = try Self.database()
        let report = try Self.load(db)
        #expect(report.previousRunIDs == [first.id])
        let before = try Self.load(db, run: first.id)
        #expect(before.previousRunIDs.isEmpty)
        let luhnBefore = try #require(before.groups(by: .rule).first { $0.key == "luhn" }).failures
        #expect(report.previousCounts[.rule]?["luhn"] == luhnBefore)
        let luhnNow = try #require(report.groups(by: .rule).first { $0.key == "luhn" }).failures
        #expect(luhnNow == luhnBefore + 1)
        #expect(report.text(by: .rule).contains("\(luhnBefore) → \(luhnNow), +1"))
        #expect(report.text(by: .field).contains("CHANGE"))
        let json = try JSONValue(parsing: report.json(by: .rule))
        let luhn = try #require(json["groups"]?.arrayValue?.first { $0["key"]?.stringValue == "luhn" })
        #expect(luhn["previous"]?.intValue == luhnBefore)
        let byEntry = try JSONValue(parsing: report.json(by: .entry))
        #expect(byEntry["changes"]?["rule"]?["luhn"]?["previous"]?.intValue == luhnBefore)
        #expect(byEntry["changes"]?["rule"]?["luhn"]?["now"]?.intValue == luhnNow)
        #expect(try JSONValue(parsing: before.json(by: .rule))["changes"] == .null)
        #expect(json["runs"]?.arrayValue?.map { $0["id"]?.intValue } == [Int(first.id), Int(report.facts.runID)])
    }

    @Test func percentagesAndThousandsSeparators() {
        #expect(ReportNumbers.grouped(1_234_567) == "1,234,567")
        #expect(ReportNumbers.grouped(999) == "999")
        #expect(ReportNumbers.percent(300_000, of: 1_000_000) == "30.0%")
        #expect(ReportNumbers.percent(1, of: 3) == "33.3%")
        #expect(ReportNumbers.percent(0, of: 0) == "—")
        #expect(ReportNumbers.change(from: 51, to: 38) == "51 → 38, −13")
        #expect(ReportNumbers.change(from: 1_000, to: 2_500) == "1,000 → 2,500, +1,500")
        #expect(ReportNumbers.change(from: 4, to: 4) == "4 → 4, ±0")
        let text = ReportSample.report().text(by: .rule)
        #expect(text.contains("failing ("), "the failing share in the facts")
    }

    /// The database's grouping and ordering agree with the same failures grouped in memory.
    @Test(arguments: ReportGrouping.allCases)
    func groupsFromTheDatabaseAgreeWithGroupsInMemory(_ grouping: ReportGrouping) throws {
        let (db, _, _, _) = try ReportDatabase.twoRuns()
        let loaded = try Self.load(db)
        let inMemory = InMemoryReportRows(failures: loaded.failures, multiForm: false)
        #expect(loaded.groups(by: grouping) == inMemory.groups(by: grouping))
        #expect(loaded.failuresInGroupOrder(by: grouping) == inMemory.inGroupOrder(grouping))
    }

    @Test func theImportLineIsProvedByAuditVerify() throws {
        let db = try ReportDatabase()
        let csv = "name,email,card,cvv\nAda,ada@example.com,\(ReportDatabase.badCard),123\n\"B\nob\",b@x.org,1,2\n"
        _ = try Importer(options: .init(form: "shop", keyField: nil, actor: "tester"))
            .run(CSVReader(source: MemoryByteSource(csv), fileName: "in.csv"), into: db.store)
        try db.validate()
        #expect(try db.store.auditReport().problems == [])
        let report = try Self.load(db)
        // A record's line is where it starts, a quoted line break included.
        #expect(Set(report.failures.compactMap(\.source)) == ["in.csv:2", "in.csv:3"])
        try db.store.database.execute("UPDATE entries SET source_line = source_line + 1")
        let problems = try db.store.auditReport().problems
        #expect(problems.contains { $0.area == .entries }, "\(problems)")
    }

    @Test func failingEntriesStreamInIDOrderAcrossRuns() throws {
        let (db, _, second, ids) = try Self.database()
        var streamed: [Int64] = []
        try db.store.forEachFailingEntryID { streamed.append($0); return true }
        #expect(streamed == [ids["s-1"]!, ids["a-3"]!, ids["a-4"]!])
        #expect(try db.store.failingEntryIDs() == streamed)
        var first: [Int64] = []
        try db.store.forEachFailingEntryID { first.append($0); return false }
        #expect(first.count == 1)
        #expect(second.counts.entriesInvalid == 3)
    }
}
