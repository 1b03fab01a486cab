import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// `import` of a file reads and encodes its records on a thread of its own
/// (``RecordPrefetch``): what is stored, skipped and refused is what reading on the storing
/// thread gave, across many of the batches handed over.
struct ImportPrefetchTests {
    /// `count` CSV records of name,email,age; the lines in `bad` have a field too many.
    func csv(_ count: Int, bad: Set<Int> = []) -> String {
        var text = "name,email,age\n"
        for i in 0..<count {
            text += bad.contains(i) ? "N\(i),n\(i)@x.org,\(i % 90),extra\n" : "N\(i),n\(i)@x.org,\(i % 90)\n"
        }
        return text
    }

    func run(_ text: String, skipBad: Bool = false, key: String? = nil, fileName: String = "big.csv",
             into store: Store) throws -> Importer.Summary {
        let reader = CSVReader(source: MemoryByteSource(text), fileName: fileName)
        return try Importer(options: .init(form: "signup", keyField: key, skipBad: skipBad, actor: "tester"))
            .run(reader, into: store)
    }

    @Test func everyRecordOfManyBatchesIsStoredInOrder() throws {
        let fixture = try ValidationFixture()
        let count = RecordPrefetch.batchSize * (RecordPrefetch.window + 3) + 17
        let summary = try run(csv(count), into: fixture.store)
        #expect(summary.records == count && summary.added == count)
        let entries = try fixture.store.entries(form: "signup")
        #expect(entries.count == count)
        #expect(entries.first?.values == ["N0", "n0@x.org", "0"])
        #expect(entries.last?.values == ["N\(count - 1)", "n\(count - 1)@x.org", "\((count - 1) % 90)"])
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.id < $1.id })
        #expect(try fixture.store.auditReport().problems == [])
    }

    @Test func skippedRecordsComeInFileOrder() throws {
        let fixture = try ValidationFixture()
        let bad: Set<Int> = [3, RecordPrefetch.batchSize + 1, 5 * RecordPrefetch.batchSize, 9 * RecordPrefetch.batchSize + 2]
        let count = 10 * RecordPrefetch.batchSize
        let summary = try run(csv(count, bad: bad), skipBad: true, into: fixture.store)
        #expect(summary.added == count - bad.count)
        // Line numbers: the header is line 1, record i is on line i + 2.
        #expect(summary.skipped.map(\.line) == bad.sorted().map { $0 + 2 })
        #expect(try fixture.store.entryCount(form: "signup") == count - bad.count)
    }

    @Test func aBadRecordFarInStopsTheImportAndStoresNothing() throws {
        let fixture = try ValidationFixture()
        let at = 7 * RecordPrefetch.batchSize + 5
        #expect(throws: RecordReadError.self) {
            _ = try run(csv(12 * RecordPrefetch.batchSize, bad: [at]), into: fixture.store)
        }
        #expect(try fixture.store.entryCount(form: "signup") == 0, "the import's transaction rolled back")
        // The store is usable afterwards: the reading thread has ended.
        let summary = try run(csv(10), into: fixture.store)
        #expect(summary.added == 10)
    }

    @Test func anErrorWhileStoringStopsTheReadingThread() throws {
        let fixture = try ValidationFixture()
        // A keyed import whose key column is empty in one record far in, without --skip-bad.
        var text = "name,email,age\n"
        for i in 0..<(8 * RecordPrefetch.batchSize) { text += "N\(i),\(i == 5 * RecordPrefetch.batchSize + 3 ? "" : "k\(i)@x.org"),30\n" }
        #expect(throws: RecordReadError.self) { _ = try run(text, key: "email", into: fixture.store) }
        #expect(try fixture.store.entryCount(form: "signup") == 0)
        // Keyed records stored from encoded values: a second import of the same file
        // changes nothing.
        var good = "name,email,age\n"
        for i in 0..<(3 * RecordPrefetch.batchSize) { good += "N\(i),k\(i)@x.org,30\n" }
        let first = try run(good, key: "email", into: fixture.store)
        let second = try run(good, key: "email", into: fixture.store)
        #expect(first.added == 3 * RecordPrefetch.batchSize)
        #expect((second.added, second.updated, second.unchanged) == (0, 0, 3 * RecordPrefetch.batchSize))
    }

    @Test func standardInputIsReadOnTheStoringThread() throws {
        let fixture = try ValidationFixture()
        let summary = try run(csv(1_500, bad: [700]), skipBad: true, fileName: "-", into: fixture.store)
        #expect(summary.added == 1_499 && summary.skipped.map(\.line) == [702])
    }
}
