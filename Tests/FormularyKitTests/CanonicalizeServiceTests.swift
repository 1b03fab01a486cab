import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// `canonicalize`: valid values rewritten into their canonical form as new entry versions,
/// invalid ones untouched, one transaction, one audit record with counts only.
struct CanonicalizeServiceTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    func row(phone: String?, card: String = "4111 1111 1111 1111", cvv: String = "123") -> [String?] {
        var r = ValidationFixture.good
        r[3] = phone
        r[5] = card
        r[7] = cvv
        return r
    }

    @Test func rewritesValidValuesAsNewVersionsAndLeavesInvalidOnes() throws {
        let fixture = try ValidationFixture()
        let ids = try fixture.add(ValidationFixture.columns, [
            row(phone: "555.123.4567"),                                  // phone rewritten
            row(phone: "(555) 123-4567"),                                // canonical already
            row(phone: "555-1234", card: "4111111111111111"),            // phone invalid; card rewritten
            row(phone: "5551234567", card: "4111 1111 1111 1112", cvv: "9 1 7"),  // card invalid (Luhn); secure cvv rewritten
        ])
        _ = try fixture.validate()
        let service = CanonicalizeService(workspace: ImpactServiceTests.workspace(fixture))
        let db = fixture.folder.appendingPathComponent("test.db").path
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let auditBefore = try fixture.store.auditRecords().count

        let dry = try service.canonicalize(form: "signup", dryRun: true, today: Self.today)
        #expect(dry.dryRun && dry.entriesChecked == 4 && dry.entriesRewritten == 3 && dry.auditSeq == nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "a dry run wrote")
        #expect(try fixture.store.auditRecords().count == auditBefore)

        let done = try service.canonicalize(form: "signup", dryRun: false, today: Self.today)
        #expect(done.entriesRewritten == 3 && !done.dryRun)
        #expect(done.fields.map(\.rewritten) == dry.fields.map(\.rewritten))
        let counts = Dictionary(uniqueKeysWithValues: done.fields.map { ($0.field, $0) })
        #expect(counts["phone"]?.rewritten == 2 && counts["phone"]?.canonical == 1 && counts["phone"]?.invalid == 1)
        #expect(counts["card"]?.rewritten == 1 && counts["card"]?.invalid == 1)
        #expect(counts["cvv"]?.rewritten == 1)

        let first = try #require(try fixture.store.entry(id: ids[0]))
        #expect(first.version == 2 && first["phone"] == "(555) 123-4567")
        #expect(try fixture.store.entryHistory(id: ids[0]).map { $0.values[3] } == ["555.123.4567"])
        #expect(try fixture.store.entry(id: ids[1])?.version == 1, "a canonical entry gets no version")
        let third = try #require(try fixture.store.entry(id: ids[2]))
        #expect(third["phone"] == "555-1234", "an invalid value is never touched")
        #expect(third["card"] == "4111 1111 1111 1111")
        let fourth = try #require(try fixture.store.entry(id: ids[3]))
        #expect(fourth["card"] == "4111 1111 1111 1112" && fourth["cvv"] == "917" && fourth["phone"] == "(555) 123-4567")

        // One audit record, counts only: no value, secure or not.
        let records = try fixture.store.auditRecords()
        #expect(records.count == auditBefore + 1)
        let record = try #require(records.last)
        #expect(record.action == "canonicalize" && record.subject == "signup" && record.actor == "ada")
        #expect(record.details.contains(#""fields":{"card":1,"cvv":1,"phone":2}"#), "\(record.details)")
        #expect(record.details.contains(#""updated":3"#))
        // The digest is random hex (keyed by the database's own key), so it may hold "555" or
        // "917" by chance: the values are looked for in the details without it.
        var withoutDigest = record.details
        let digestStart = try #require(withoutDigest.range(of: #""digest":""#))
        let digestEnd = try #require(withoutDigest.index(digestStart.upperBound, offsetBy: 64, limitedBy: withoutDigest.endIndex))
        #expect(withoutDigest[digestStart.upperBound..<digestEnd].allSatisfy { $0.isHexDigit })
        withoutDigest.removeSubrange(digestStart.lowerBound..<digestEnd)
        for value in ["917", "9 1 7", "4111", "555"] { #expect(!withoutDigest.contains(value), "\(record.details)") }
        #expect(try fixture.store.verifyAudit().isValid)
        let report = try AuditService(workspace: ImpactServiceTests.workspace(fixture)).verify(expectedHead: nil)
        #expect(report.problems.isEmpty, "\(report.problems)")

        // The run before judged version 1; history says the entry was replaced since.
        let history = try fixture.store.runHistory(entryID: ids[0])
        #expect(history.map(\.isCurrentVersion) == [false])
        let shown = try HistoryService(workspace: ImpactServiceTests.workspace(fixture)).history(entry: ids[0])
        #expect(shown.versions.map(\.source) == ["test.csv", "canonicalize"])
        #expect(shown.versions.map(\.version) == [1, 2] && shown.versions.last?.actor == "ada")

        // A second pass finds nothing to do and writes nothing.
        let again = try service.canonicalize(form: "signup", dryRun: false, today: Self.today)
        #expect(again.entriesRewritten == 0 && again.auditSeq == nil)
        #expect(try fixture.store.auditRecords().count == auditBefore + 1)
    }

    @Test func theKeyValueIsKept() throws {
        let fixture = try ValidationFixture()
        _ = try fixture.upsert(ValidationFixture.columns, key: "555.123.4567", row(phone: "555.123.4567"))
        let outcome = try CanonicalizeService(workspace: ImpactServiceTests.workspace(fixture))
            .canonicalize(form: "signup", dryRun: false, today: Self.today)
        #expect(outcome.entriesRewritten == 0)
        #expect(outcome.fields.first { $0.field == "phone" }?.kept == 1)
    }

    @Test func anUnknownFormIsNotFoundWithASuggestion() throws {
        let fixture = try ValidationFixture()
        let service = CanonicalizeService(workspace: ImpactServiceTests.workspace(fixture))
        do {
            _ = try service.canonicalize(form: "signp", dryRun: true, today: Self.today)
            Issue.record("an unknown form was accepted")
        } catch let error as ServiceError {
            #expect(error.kind == .notFound)
            #expect(error.message == "unknown form 'signp'; did you mean 'signup'?")
        }
        // An empty store: nothing to do.
        let empty = try service.canonicalize(form: "signup", dryRun: false, today: Self.today)
        #expect(empty.entriesChecked == 0 && empty.entriesRewritten == 0)
    }
}
