import Foundation
import Testing
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// `unique` in batch validation: entries sharing canonical values fail, each naming the
/// others; absent values never collide; counts and the audit digest stay right.
struct UniqueValidationTests {
    static let form = """
        form signup
        field name   name    required
        field email  email
        field team   name    label "Team"
        field seat   age
        unique email
        unique team, seat   as seat-taken warning
        """

    func results(_ fixture: ValidationFixture, run: FormularyStore.RunRecord) throws -> [Int64: [String]] {
        var out: [Int64: [String]] = [:]
        for result in try fixture.store.results(ofRun: run.id) {
            let r = result.rule
            out[result.entryID, default: []].append("\(r.field ?? "-")|\(r.rule)|\(r.severity.rawValue)|\(r.message)")
        }
        return out
    }

    @Test func entriesWithTheSameCanonicalValuesFailAndNameEachOther() throws {
        let fixture = try ValidationFixture(form: Self.form)
        let ids = try fixture.add(["name", "email", "team", "seat"], [
            ["Ada", "ada@example.com", "red", "20"],      // 1: same email as 3 (trimmed)
            ["Bob", "bob@example.com", "red", "21"],      // 2
            ["Cy", " ada@example.com ", "blue", "20"],    // 3
            ["Di", nil, "red", "21"],                     // 4: absent email; same team and seat as 2
            ["Ed", "  ", "green", nil],                   // 5: blank email, absent seat: no collision
            ["Flo", "Ada@example.com", "green", "22"],    // 6: case differs: another value
            [nil, "bob@example.com", nil, "30"],          // 7: invalid (name required) and same email as 2
        ])
        // Batches of 2 with 2 workers: the duplicates lie in different batches.
        let run = try fixture.validate(batchSize: 2)
        let found = try results(fixture, run: run)
        #expect(found[ids[0]] == ["email|unique|error|the same 'email' as entry \(ids[2])"])
        #expect(found[ids[2]] == ["email|unique|error|the same 'email' as entry \(ids[0])"])
        #expect(found[ids[1]]?.sorted() == ["email|unique|error|the same 'email' as entry \(ids[6])",
                                          "team|seat-taken|warning|the same Team, 'seat' as entry \(ids[3])"])
        #expect(found[ids[3]] == ["team|seat-taken|warning|the same Team, 'seat' as entry \(ids[1])"])
        #expect(found[ids[6]]?.sorted() == ["email|unique|error|the same 'email' as entry \(ids[1])",
                                          "name|required|error|'name' is required"])
        #expect(found[ids[4]] == nil && found[ids[5]] == nil)
        #expect(found.count == 5)

        // Counts: 1, 2, 3 and 7 invalid (7 already was); 4 warned.
        #expect(run.status == .complete)
        #expect(run.counts.entriesChecked == 7)
        #expect(run.counts.entriesInvalid == 4)
        #expect(run.counts.entriesWarned == 1)
        #expect(run.counts.errors == 5 && run.counts.warnings == 2)
        // The run's digest, recomputed from the rows as verification does, still holds.
        #expect(try fixture.store.verifyAudit().isValid)
    }

    @Test func largeGroupsNameAFewIdsAndHowManyMore() throws {
        func message(_ fields: [String], _ ids: [Int64], of count: Int, custom: String? = nil) -> String {
            RuleTexts.uniqueMessage(custom ?? RuleTexts.englishText("unique")!, fields: fields, ids: ids, count: count) {
                RuleTexts.englishText($0)!
            }
        }
        #expect(message(["'email'"], [1, 2, 3, 4, 5], of: 7) == "the same 'email' as entries 1, 2, 3, 4, 5 and 2 more")
        #expect(message(["Team", "'b'", "'c'"], [9], of: 1) == "the same Team, 'b', 'c' as entry 9")
        // A rule's own message is followed by the ids, unless it places them itself.
        #expect(message(["'email'"], [3, 4], of: 2, custom: "Email already used") == "Email already used (entries 3, 4)")
        #expect(message(["'email'"], [3], of: 1, custom: "{fields} taken by {entries}") == "'email' taken by entry 3")
        // A large group names its first members and counts the rest.
        #expect(message(["'email'"], [1, 2, 3, 4, 5], of: 3414) == "the same 'email' as entries 1, 2, 3, 4, 5 and 3409 more")

        let fixture = try ValidationFixture(form: Self.form)
        let ids = try fixture.add(["name", "email"], (0..<9).map { i in ["N" + String(UnicodeScalar(UInt8(97 + i))), "same@example.com"] })
        let run = try fixture.validate(batchSize: 4)
        let found = try results(fixture, run: run)
        let others = ids.dropFirst().prefix(5).map(String.init).joined(separator: ", ")
        #expect(found[ids[0]] == ["email|unique|error|the same 'email' as entries \(others) and 3 more"])
        #expect(found.count == 9 && run.counts.entriesInvalid == 9)
    }

    /// A run in a locale names the fields and the other entries in its words.
    @Test func aRunInALocaleWordsUniqueInIt() throws {
        let fixture = try ValidationFixture(form: Self.form)
        fixture.registry.localize("de")
        let ids = try fixture.add(["name", "email", "team", "seat"], [
            ["Ada", "ada@example.com", "red", "20"], ["Bob", "ada@example.com", "red", "20"], ["Cy", "ada@example.com", nil, nil],
        ])
        let found = try results(fixture, run: fixture.validate(batchSize: 2))
        #expect(found[ids[0]]?.sorted() == ["email|unique|error|Dieselben Angaben zu 'email' wie Einträge \(ids[1]), \(ids[2])",
                                          "team|seat-taken|warning|Dieselben Angaben zu Team, 'seat' wie Eintrag \(ids[1])"])
        #expect(found[ids[2]] == ["email|unique|error|Dieselben Angaben zu 'email' wie Einträge \(ids[0]), \(ids[1])"])
    }

    @Test func withoutDuplicatesNothingChangesAndOneRecordIgnoresUnique() throws {
        let fixture = try ValidationFixture(form: Self.form)
        try fixture.add(["name", "email"], (0..<20).map { i in ["N" + String(UnicodeScalar(UInt8(97 + i))), "u\(i)@example.com"] })
        let run = try fixture.validate(batchSize: 3)
        #expect(try results(fixture, run: run).isEmpty)
        #expect(run.counts.entriesInvalid == 0 && run.counts.entriesChecked == 20)

        let signup = try FieldCatalog.builtin(today: CivilDate(year: 2026, month: 11, day: 29))
            .form(source: Self.form, file: "signup.form")
        #expect(signup.judge(["name": "Ada", "email": "ada@example.com"]).verdict == .valid)
    }

    /// The bucketed search finds every hash two entries share, in any bucket, and nothing else.
    @Test func sharedHashesAreFoundAcrossBuckets() {
        var hashes: [UniqueKeyHash] = []
        for i in 0..<5_000 { hashes.append(UniqueKeyHash(hash: UInt64(i) &* 0x9E37_79B9_7F4A_7C15, entryID: Int64(i))) }
        let shared: [UInt64] = [0, 1 << 63, 0xFFFF_0000_0000_0001, 0x1234_5678_9ABC_DEF0]
        for (k, h) in shared.enumerated() {
            hashes.append(UniqueKeyHash(hash: h, entryID: 10_000 + Int64(k)))
            hashes.append(UniqueKeyHash(hash: h, entryID: 20_000 + Int64(k)))
        }
        // Same top 16 bits, different hashes: same bucket, no candidates.
        hashes.append(UniqueKeyHash(hash: 0xABCD_0000_0000_0001, entryID: 30_000))
        hashes.append(UniqueKeyHash(hash: 0xABCD_0000_0000_0002, entryID: 30_001))
        let found = Set(ValidationRun.sharedHashes(hashes))
        // Hash 0 is also entry 0's (0 × the constant).
        #expect(found == [0, 10_000, 20_000, 10_001, 20_001, 10_002, 20_002, 10_003, 20_003])
        #expect(ValidationRun.sharedHashes([]).isEmpty)
    }

    /// The filter filled batch by batch passes every hash another one equals (across batches
    /// too), passes hashes that only share its slot, and drops hashes alone in their slot.
    @Test func hashFilterPassesEverySharedHash() {
        var filter = UniqueHashFilter(expected: 100)
        let first = [UniqueKeyHash(hash: 7, entryID: 1), UniqueKeyHash(hash: 1 << 40 | 9, entryID: 2),
                     UniqueKeyHash(hash: 11, entryID: 3)]
        // Hash 7 again in a later batch; 1 << 40 | 9 and 9 differ but share a slot (low bits).
        let second = [UniqueKeyHash(hash: 7, entryID: 4), UniqueKeyHash(hash: 9, entryID: 5),
                      UniqueKeyHash(hash: 12, entryID: 6)]
        filter.insert(contentsOf: first)
        filter.insert(contentsOf: second)
        let passed = filter.candidates(first + second)
        #expect(passed.map(\.entryID) == [1, 2, 4, 5])
        #expect(Set(ValidationRun.sharedHashes(passed)) == [1, 4])
        #expect(UniqueHashFilter(expected: 0).candidates([]).isEmpty)
    }
}
