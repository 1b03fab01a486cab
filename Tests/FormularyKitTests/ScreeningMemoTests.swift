import Testing
import FormularyRules
import FormularyStore
@testable import FormularyKit

/// A worker's memo of screenings must never change a verdict: it answers exactly what the
/// engine would, tells apart values that only differ in length or zero bytes, survives
/// slot collisions, and stops remembering a field whose values do not repeat.
@Suite struct ScreeningMemoTests {
    static let today = CivilDate(year: 2026, month: 11, day: 29)

    private static func compiled(_ source: String) throws -> CompiledFieldType {
        let registry = Registry(files: Registry.builtinFiles)
        return try registry.compile(TypeReference(name: source, location: .unknown), today: today).get()
    }

    /// Screens `values` through the memo (field 0) and directly; they must agree every time.
    private func expectSameScreenings(_ type: CompiledFieldType, _ values: [[UInt8]], memo: ScreeningMemo) {
        let scratch = FormularyRules.Scratch()
        for value in values {
            value.withUnsafeBytes { bytes in
                let direct = type.screen(utf8: bytes, scratch: scratch)
                let remembered = memo.screening(field: 0, of: bytes) { type.screen(utf8: $0, scratch: scratch) }
                #expect(remembered == direct, "\(value)")
            }
        }
    }

    @Test func answersWhatTheEngineWouldWithRepeatsAndCollisions() throws {
        let age = try Self.compiled("age")
        // 3,000 distinct short values in a 1,024-slot table: repeats hit, collisions evict.
        var values: [[UInt8]] = []
        var state: UInt64 = 42
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let n = Int(state >> 33) % 3_000
            values.append(Array(String(n - 100).utf8))
        }
        values += [[], [0x20], [0x00], [0x00, 0x00], [0x31, 0x00], [0x31], [0xFF], [0xC3, 0x28],
                   Array("4O".utf8), Array(String(repeating: "1", count: 25).utf8), Array(" 42 ".utf8)]
        let memo = ScreeningMemo(fieldCount: 1)
        expectSameScreenings(age, values + values.reversed(), memo: memo)
        let counts = memo.counts(field: 0)
        #expect(counts.hits > 10_000)
        #expect(memo.isEnabled(field: 0))
    }

    @Test func tellsApartValuesThatDifferOnlyInLengthOrZeroBytes() throws {
        let cvv = try Self.compiled("cvv")
        let memo = ScreeningMemo(fieldCount: 1)
        // "123" is clean; "123\0" and "\0123" must not be taken for it, in either order.
        expectSameScreenings(cvv, [Array("123".utf8), Array("123".utf8) + [0], [0] + Array("123".utf8),
                                   Array("123".utf8), [], [0], Array("123".utf8) + [0]], memo: memo)
        // In a one-slot table every value lands on the last one's slot: only the stored
        // length and bytes tell them apart.
        let tiny = ScreeningMemo(fieldCount: 1, slots: 1)
        expectSameScreenings(cvv, [Array("123".utf8), Array("123".utf8) + [0], Array("123".utf8) + [0, 0],
                                   Array("123".utf8), Array("124".utf8), Array("123".utf8), [], [0], []], memo: tiny)
    }

    @Test func keysTellApartValuesOfOneLengthByAnyByte() throws {
        // The four-word key is made of loads that overlap: changing any one byte of a value of
        // any length it takes (past the one-word table's, up to the memo's longest) must change it.
        var state: UInt64 = 7
        for n in (ScreeningMemo.shortLength + 1)...ScreeningMemo.maxLength {
            var value = (0..<n).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 40)
            }
            let original = value.withUnsafeBytes { ScreeningMemo.key($0.baseAddress!, n) }
            for i in 0..<n {
                let kept = value[i]
                value[i] = kept ^ 0x01
                let changed = value.withUnsafeBytes { ScreeningMemo.key($0.baseAddress!, n) }
                #expect(changed != original, "length \(n), byte \(i)")
                value[i] = kept
            }
        }
    }

    @Test func shortKeysAreTheBytesExactly() throws {
        // A short value's slot holds its bytes themselves, not a digest: any byte changed
        // changes the word, and nothing lands above the value's own bytes (the top byte holds
        // the length and the answer).
        var state: UInt64 = 11
        for n in 1...ScreeningMemo.shortLength {
            var value = (0..<n).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 40) | 0x80
            }
            let word = value.withUnsafeBytes { ScreeningMemo.shortKey($0.baseAddress!, n) }
            let expected = value.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            #expect(word == expected, "length \(n)")
            for i in 0..<n {
                value[i] ^= 0x01
                #expect(value.withUnsafeBytes { ScreeningMemo.shortKey($0.baseAddress!, n) } != word, "length \(n), byte \(i)")
                value[i] ^= 0x01
            }
        }
    }

    @Test func shortAndLongValuesShareNoSlot() throws {
        // Seven bytes go to the one-word table, eight to the four-word one: in one-slot tables
        // each keeps its own last value, and a value sharing a prefix with it is not taken for it.
        let name = try Self.compiled("name")
        let tiny = ScreeningMemo(fieldCount: 1, slots: 1)
        let values = ["Ann Lee", "Ann Lees", "Ann Lee", "Ann Le", "Ann Lees", "Ann Lee\u{0}", "Ann Lee", "", "1234567",
                      "12345678", "1234567", "Ann Lee"].map { Array($0.utf8) }
        expectSameScreenings(name, values, memo: tiny)
        #expect(tiny.counts(field: 0).hits >= 2)
    }

    @Test func valuesDifferingInTheirLastByteSpreadOverTheTable() throws {
        // Expiry dates "MM/yy" differ last in their fifth byte, which sits in a key word's top
        // byte: slots picked by a product's low bits put every year's "MM/y0"…"MM/y9" in one
        // slot, and seen in turn they evicted each other.
        let exp = try Self.compiled("exp-date")
        var values: [[UInt8]] = []
        for month in 1...12 {
            for year in 30...41 { values.append(Array(String(format: "%02d/%02d", month, year).utf8)) }
        }
        let memo = ScreeningMemo(fieldCount: 1)
        expectSameScreenings(exp, Array(repeatElement(values, count: 10).joined()), memo: memo)
        let counts = memo.counts(field: 0)
        #expect(counts.lookups == 1_440)
        #expect(counts.hits >= 1_250, "\(counts.hits) hits of 1,296 possible")
    }

    @Test func takesAnEmptyBufferWithoutAnAddress() throws {
        let cvv = try Self.compiled("cvv")
        let memo = ScreeningMemo(fieldCount: 1)
        let scratch = FormularyRules.Scratch()
        let empty = UnsafeRawBufferPointer(start: nil, count: 0)
        for _ in 0..<2 {
            #expect(memo.screening(field: 0, of: empty) { cvv.screen(utf8: $0, scratch: scratch) } == .absent)
        }
        #expect(memo.counts(field: 0).hits == 1)
    }

    @Test func stopsRememberingAFieldWhoseValuesDoNotRepeat() throws {
        let card = try Self.compiled("credit-card")
        let memo = ScreeningMemo(fieldCount: 1)
        let unique = (0..<ScreeningMemo.window + 10).map { Array(String(4_000_000_000_000_000 + $0 * 7).utf8) }
        expectSameScreenings(card, unique, memo: memo)
        #expect(!memo.isEnabled(field: 0))
        #expect(memo.counts(field: 0).lookups == ScreeningMemo.window)   // none after the decision
    }

    @Test func aDisabledMemoJudgesEveryValue() throws {
        let memo = ScreeningMemo(fieldCount: 2, enabled: false)
        let cvv = try Self.compiled("cvv")
        expectSameScreenings(cvv, Array(repeating: Array("123".utf8), count: 10), memo: memo)
        #expect(memo.counts(field: 0).lookups == 0)
    }

    @Test func runsWithAndWithoutTheMemoRecordTheSameResults() throws {
        let fixture = try ValidationFixture()
        let columns = ["name", "email", "email-again", "age", "card", "exp", "cvv"]
        var rows: [[String?]] = []
        for i in 0..<3_000 {
            let age = i % 7 == 0 ? "17" : i % 11 == 0 ? "abc" : String(18 + i % 90)
            let cvv = i % 13 == 0 ? "12" : String(100 + i % 50)
            let exp = i % 17 == 0 ? "13/27" : "0\(1 + i % 9)/2\(7 + i % 3)"
            rows.append(["Ada Lovelace", "ada\(i)@example.com", "ada\(i)@example.com", age,
                         "4111 1111 1111 1111", exp, cvv])
        }
        try fixture.add(columns, rows)
        let with = try fixture.validate(batchSize: 500, rememberValues: true)
        let without = try fixture.validate(batchSize: 500, rememberValues: false)
        #expect(with.counts == without.counts)
        #expect(with.counts.entriesInvalid > 500)
        func shape(_ run: FormularyStore.RunRecord) throws -> [String] {
            try fixture.store.results(ofRun: run.id).map {
                "\($0.entryID) \($0.entryVersion) \($0.rule.field ?? "-") \($0.rule.rule) \($0.rule.message)"
            }.sorted()
        }
        #expect(try shape(with) == shape(without))
    }
}
