import Foundation
import Testing
import FormularyJSON
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// A run's `unique` failures reach the report with the other entries' ids in the message,
/// in the text report (`formulary report`) and in the JSON one (`--format json`).
@Suite struct ReportUniqueTests {
    static let form = ReportDatabase.form + "\nunique email\n"

    /// Entries a-1 and a-3 share an email (a-3's typed with spaces around it); a-2 does not.
    func database() throws -> (ReportDatabase, ids: [String: Int64]) {
        let db = try ReportDatabase(form: Self.form)
        var ids: [String: Int64] = [:]
        ids["a-1"] = try db.put("a-1", ["Ada", "ada@example.com", ReportDatabase.goodCard, "123"])
        ids["a-2"] = try db.put("a-2", ["Bob", "bob@example.com", ReportDatabase.goodCard, "123"])
        ids["a-3"] = try db.put("a-3", ["Cy", " ada@example.com ", ReportDatabase.goodCard, "123"])
        try db.validate()
        return (db, ids)
    }

    @Test func theTextReportNamesTheOtherEntry() throws {
        let (db, ids) = try database()
        let report = try RunReport.load(from: db.store)
        let (a1, a3) = (ids["a-1"]!, ids["a-3"]!)
        #expect(report.facts.entriesFailing == 2)
        // Grouped by rule or field, a row shows the group's first message: a-1's, naming a-3.
        for grouping in [ReportGrouping.rule, .field] {
            let text = report.text(by: grouping)
            let row = try #require(text.split(separator: "\n").first { $0.hasPrefix(grouping == .rule ? "unique" : "email") },
                                   "no unique row in:\n\(text)")
            #expect(row.contains("the same 'email' as entry \(a3)"), "\(row)")
            #expect(row.hasSuffix("entry \(a3)"), "\(row)")
        }
        // Grouped by entry, both entries are listed with the rule (and its value, here secret:
        // no registry without plugin folders knows the form).
        let byEntry = report.text(by: .entry)
        for id in [a1, a3] {
            #expect(byEntry.split(separator: "\n").contains { $0.hasPrefix("#\(id) ") && $0.hasSuffix("email.unique \"•••\"") },
                    "\(byEntry)")
        }
    }

    @Test func theJSONReportGivesEachEntryTheOthersID() throws {
        let (db, ids) = try database()
        let report = try RunReport.load(from: db.store)
        let (a1, a3) = (ids["a-1"]!, ids["a-3"]!)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json(by: .rule))) as? [String: Any])
        let failures = try #require(json["failures"] as? [[String: Any]])
        let unique = failures.filter { $0["rule"] as? String == "unique" }
        let messages = Dictionary(uniqueKeysWithValues: unique.map {
            (($0["entry_id"] as? NSNumber)?.int64Value ?? -1, $0["message"] as? String ?? "")
        })
        #expect(messages == [a1: "the same 'email' as entry \(a3)", a3: "the same 'email' as entry \(a1)"], "\(unique)")
        #expect(unique.allSatisfy { $0["field"] as? String == "email" && $0["severity"] as? String == "error" })
        let groups = try #require(json["groups"] as? [[String: Any]])
        let group = try #require(groups.first { $0["key"] as? String == "unique" })
        #expect(group["entries"] as? Int == 2)
        #expect(group["message"] as? String == "the same 'email' as entry \(a3)")
    }
}
