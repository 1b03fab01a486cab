import Foundation
import Testing
@testable import FormularyStore

struct EntryStoreTests {
    let folder = TemporaryDirectory()

    func makeStore() throws -> Store {
        let store = try Store(path: folder.path("entries.db"))
        try store.migrate()
        return store
    }

    @Test func addsAndReadsEntries() throws {
        let store = try makeStore()
        let ids = try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
            let layout = try writer.layoutID(for: ["name", "email", "nickname"])
            let a = try writer.add(layoutID: layout, values: ["Ada", "ada@example.com", nil])
            let other = try writer.layoutID(for: ["email", "name"])
            let b = try writer.add(layoutID: other, values: ["bob@example.com", ""])
            return [a, b]
        }
        let first = try #require(try store.entry(id: ids[0]))
        #expect(first.form == "signup" && first.key == nil && first.version == 1)
        #expect(first["name"] == "Ada" && first["nickname"] == nil && first["missing"] == nil)
        #expect(first.fields == ["name", "email", "nickname"])
        #expect(first.presentValues.map(\.field) == ["name", "email"])
        let second = try #require(try store.entry(id: ids[1]))
        #expect(second["name"] == "" && second["email"] == "bob@example.com")
        #expect(try store.entries(form: "signup").map(\.id) == ids)
        #expect(try store.entries(form: "other").isEmpty)
        #expect(try store.entries(afterID: ids[0]).map(\.id) == [ids[1]])
        #expect(try store.entryCount(form: "signup") == 2 && store.entryCount() == 2)
        // entries declares no foreign keys (speed): the writer must keep them valid itself.
        #expect(try store.database.scalarInt64("""
            SELECT count(*) FROM entries AS e
            WHERE NOT EXISTS (SELECT 1 FROM forms WHERE id = e.form_id)
               OR NOT EXISTS (SELECT 1 FROM entry_layouts WHERE id = e.layout_id)
               OR NOT EXISTS (SELECT 1 FROM imports WHERE id = e.created_in)
               OR (e.updated_in IS NOT NULL AND NOT EXISTS (SELECT 1 FROM imports WHERE id = e.updated_in))
            """) == 0)
        #expect(try store.database.scalarString("SELECT source FROM imports") == "test.csv")
        #expect(try store.entry(id: 999) == nil)
        #expect(try store.formNamesWithEntries() == ["signup"])
        #expect(try store.hasEntries(form: "signup"))
        #expect(try !store.hasEntries(form: "no-such-form"))
        _ = try store.ensureFormID(named: "empty")
        #expect(try !store.hasEntries(form: "empty"))
    }

    @Test func layoutsAreSharedAndSurviveACacheReset() throws {
        let store = try makeStore()
        let a = try store.layoutID(for: ["a", "b"])
        #expect(try store.layoutID(for: ["a", "b"]) == a)
        #expect(try store.layoutID(for: ["b", "a"]) != a)
        store.clearLayoutCache()
        #expect(try store.layoutID(for: ["a", "b"]) == a)
        #expect(try store.layoutFields(a) == ["a", "b"])
    }

    @Test func rolledBackImportLeavesNothingAndNoStaleLayout() throws {
        let store = try makeStore()
        struct Malformed: Error {}
        #expect(throws: Malformed.self) {
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
                let layout = try writer.layoutID(for: ["x"])
                try writer.add(layoutID: layout, values: ["1"])
                throw Malformed()
            }
        }
        #expect(try store.entryCount() == 0)
        // The layout row was rolled back; a new import must not reuse its cached id.
        try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
            try writer.add(layoutID: try writer.layoutID(for: ["x"]), values: ["2"])
        }
        #expect(try store.entries().map { $0["x"] } == ["2"])
    }

    @Test func keyedImportUpdatesAndKeepsHistory() throws {
        let store = try makeStore()
        let times = ["2026-01-01", "2026-02-01", "2026-03-01"].map {
            ISO8601DateFormatter().date(from: "\($0)T00:00:00Z")!
        }
        var outcomes: [EntryWriteOutcome] = []
        for (round, values) in [["a@x", "Ada"], ["a@x", "Ada L."], ["a@x", "Ada L."]].enumerated() {
            let time = times[round]
            store.clock = { time }
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
                let layout = try writer.layoutID(for: ["email", "name"])
                outcomes.append(try writer.upsert(key: values[0], layoutID: layout, values: values))
            }
        }
        let id = outcomes[0].id
        #expect(outcomes == [.inserted(id: id), .updated(id: id, version: 2), .unchanged(id: id)])
        let entry = try #require(try store.entry(id: id))
        #expect(entry.key == "a@x" && entry["name"] == "Ada L." && entry.version == 2)
        #expect(entry.createdAt.hasPrefix("2026-01-01") && entry.updatedAt.hasPrefix("2026-02-01"))
        let history = try store.entryHistory(id: id)
        #expect(history.count == 1)
        #expect(history[0].version == 1 && history[0].values == ["a@x", "Ada"])
        #expect(history[0].validFrom.hasPrefix("2026-01-01") && history[0].replacedAt.hasPrefix("2026-02-01"))
        // The same key in another form is another entry.
        let other = try store.transaction {
            let writer = try store.entryWriter(form: "newsletter", actor: "tester", source: "test.csv")
            return try writer.upsert(key: "a@x", layoutID: try writer.layoutID(for: ["email"]), values: ["a@x"])
        }
        #expect(other.id != id)
        // Without upsert a duplicate key is refused by the database.
        #expect(throws: DatabaseError.self) {
            try store.transaction {
                let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
                _ = try EntryValues.encode(["a@x"]).withUnsafeBytes {
                    try writer.add(layoutID: try writer.layoutID(for: ["email"]), encoded: $0, key: "a@x")
                }
            }
        }
    }

    @Test func scansEncodedEntriesInIdRanges() throws {
        let store = try makeStore()
        let ids = try store.transaction {
            let writer = try store.entryWriter(form: "f", actor: "tester", source: "test.csv")
            let layout = try writer.layoutID(for: ["n"])
            return try (0..<10).map { try writer.add(layoutID: layout, values: ["\($0)"]) }
        }
        let formID = try #require(try store.formID(named: "f"))
        var seen: [String] = []
        try store.forEachEncodedEntry(formID: formID, afterID: ids[2], throughID: ids[7]) { _, _, bytes in
            var spans = [EntryValueSpan](repeating: .absent, count: 1)
            try EntryValues.locate(bytes, into: &spans)
            seen.append(String(decoding: spans[0].bytes(in: bytes)!, as: UTF8.self))
            return seen.count < 4
        }
        #expect(seen == ["3", "4", "5", "6"])
    }

    /// Many 7-field entries through one writer in one transaction (reused statements, the
    /// encoded-values path an import takes) are all stored, and a scan gives each back once,
    /// in id order, with its values intact. The speed of both is a printed figure of
    /// `FormularyBench store`, not an assertion here.
    @Test func batchInsertStoresEveryEntry() throws {
        let store = try makeStore()
        let count = 50_000
        let fields = ["name", "email", "phone", "age", "card", "exp", "cvv"]
        func values(_ index: Int) -> [String?] {
            ["Person \(index)", "person\(index)@example.com", "555-123-\(1000 + index % 9000)",
             "\(18 + index % 80)", "4111 1111 1111 1111", "12/29", "123"]
        }
        var bytesWritten = 0
        let ids = try store.transaction {
            let writer = try store.entryWriter(form: "signup", actor: "tester", source: "test.csv")
            let layout = try writer.layoutID(for: fields)
            var encoded: [UInt8] = []
            return try (0..<count).map { index in
                EntryValues.encode(values(index), into: &encoded)
                bytesWritten += encoded.count
                return try encoded.withUnsafeBytes { try writer.add(layoutID: layout, encoded: $0) }
            }
        }
        #expect(try store.entryCount() == count)
        #expect(Set(ids).count == count && ids == ids.sorted())

        var seen: [Int64] = []
        var bytesRead = 0
        var mismatches = 0
        try store.forEachEncodedEntry(formID: try #require(try store.formID(named: "signup"))) { id, _, encoded in
            bytesRead += encoded.count
            let index = seen.count
            seen.append(id)
            if index % 997 == 0, (try? EntryValues.decode(Array(encoded))) != values(index) { mismatches += 1 }
            return true
        }
        #expect(seen == ids)
        #expect(bytesRead == bytesWritten)
        #expect(mismatches == 0)
    }
}
