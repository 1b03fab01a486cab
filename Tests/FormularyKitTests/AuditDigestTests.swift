import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// What writers record of their data matches what `audit verify` recomputes from the tables,
/// however the data was written: keyed imports that update, a key twice in one file, layouts
/// that change within a file, runs over several forms, runs that stop early or whose process
/// dies, and data older than the digests.
struct AuditDigestTests {
    func importFile(_ text: String, name: String, key: String? = nil, into fixture: ValidationFixture,
                    form: String = "signup") throws -> Importer.Summary {
        let reader: any RecordReader = name.hasSuffix(".jsonl")
            ? JSONLinesReader(source: MemoryByteSource(text), fileName: name)
            : CSVReader(source: MemoryByteSource(text), fileName: name)
        return try Importer(options: .init(form: form, keyField: key, actor: "tester")).run(reader, into: fixture.store)
    }

    func expectVerifies(_ store: Store, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let report = try store.auditReport()
        #expect(report.problems == [], sourceLocation: sourceLocation)
    }

    @Test func importsOfEveryShapeVerify() throws {
        let fixture = try ValidationFixture()
        let first = try importFile("email,name\na@x.org,A\nb@x.org,B\na@x.org,A2\nc@x.org,C\n", name: "one.csv",
                                   key: "email", into: fixture)
        #expect((first.added, first.updated) == (3, 1), "a key twice in one file: added, then updated")
        let second = try importFile("""
            {"email": "b@x.org", "name": "B2", "age": "40"}
            {"email": "c@x.org", "name": "C"}
            {"email": "d@x.org"}
            {"email": "b@x.org", "name": "B3"}
            """, name: "two.jsonl", key: "email", into: fixture)
        #expect((second.added, second.updated) == (1, 3), "c@x.org changes layout: the reader's header grew")
        let again = try importFile("email,name\na@x.org,A2\n", name: "again.csv", key: "email", into: fixture)
        #expect((again.added, again.updated, again.unchanged) == (0, 0, 1), "an unchanged record writes nothing")
        _ = try importFile("name,email\nN,n@x.org\n", name: "three.csv", into: fixture)
        _ = try importFile("name\nOther\n", name: "other.csv", into: fixture, form: "other")
        try expectVerifies(fixture.store)
        let report = try fixture.store.auditReport()
        #expect(report.covered.imports == 5, "the unchanged import too")
        #expect(report.covered.entryVersions == 4 + 4 + 1 + 1, "every version written, earlier ones included")
    }

    @Test func runsOverSeveralFormsVerify() throws {
        let fixture = try ValidationFixture()
        try "form other\nfield name name required\n".write(to: fixture.folder.appendingPathComponent("other.form"),
                                                          atomically: true, encoding: .utf8)
        fixture.registry = try Registry.load(folders: [PluginFolder(path: fixture.folder.path, origin: .option)])
        var sample = SampleRows(state: 9)
        try fixture.add(ValidationFixture.columns, (0..<20).map { _ in sample.row() })
        try fixture.add(["name"], [["x"], [nil]], form: "other")
        try fixture.add(ValidationFixture.columns, (0..<20).map { _ in sample.row() })
        _ = try fixture.validate(batchSize: 6)
        try expectVerifies(fixture.store)
        // Every record the run appended carries a digest that matches.
        let records = try fixture.store.auditRecords().filter { $0.action.hasPrefix("validate") }
        #expect(records.map(\.action) == ["validate.start", "validate"])
        #expect(records.allSatisfy { $0.details.contains("\"digest\":") })
    }

    @Test func aRunStoppedByAnErrorIsSealedFromWhatItCommitted() throws {
        let fixture = try ValidationFixture()
        var sample = SampleRows(state: 3)
        try fixture.add(ValidationFixture.columns, (0..<50).map { _ in sample.row() })
        let updates = Counter()
        fixture.store.database.stepHook = { sql in
            guard sql.hasPrefix("UPDATE run_forms SET judged_through") else { return nil }
            return updates.next() == 3 ? 13 /* SQLITE_FULL */ : nil
        }
        #expect(throws: DatabaseError.self) { try fixture.validate(batchSize: 10) }
        fixture.store.database.stepHook = nil
        #expect(try fixture.store.runs()[0].status == .incomplete)
        try expectVerifies(fixture.store)
    }

    @Test func aRunWhoseProcessDiedIsNotedThenSealedByTheNextRun() throws {
        let fixture = try ValidationFixture()
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good, ValidationFixture.good])
        let store = fixture.store
        let gone = RunProcess(host: RunProcess.current.host, pid: Int64(Int32.max - 7), start: "")
        let formID = try #require(try store.formID(named: "signup"))
        let formVersion = try store.recordVersion(.form, name: "signup", source: "form signup\n", origin: "builtin", actor: "ghost")
        let runID = try store.transaction {
            let run = try store.insertRun(actor: "ghost", today: "2026-11-29", process: gone)
            try store.insertRunForm(runID: run.id, formID: formID, formVersionID: formVersion.id, lastID: 2)
            try store.recordRunStart(id: run.id, actor: "ghost")
            return run.id
        }
        // One committed batch, then the process "died".
        let writer = try store.runResultWriter(runID: runID)
        try store.transaction {
            let rule = try writer.ruleID(formID: formID, field: "name", type: "name", rule: "required",
                                         severity: .error, message: "Name is required")
            try writer.add(entryID: 1, entryVersion: 1, ruleID: rule)
            try writer.progress(formID: formID, judgedThrough: 1, counts: RunCounts(entriesChecked: 1, entriesInvalid: 1, errors: 1))
        }
        let before = try store.auditReport()
        #expect(before.problems == [])
        #expect(before.notes.contains { $0.contains("run \(runID)'s process ended before the run did") }, "\(before.notes)")
        _ = try fixture.validate()
        let after = try store.auditReport()
        #expect(after.problems == [] && after.notes == [])
        #expect(try store.run(id: runID)?.recordedStatus == .incomplete)
        // Sealed: what the dead run committed is now proved.
        try store.database.execute("DELETE FROM run_results WHERE run_id = ?", [.integer(runID)])
        #expect(try store.auditReport().problems.contains { $0.area == .runs && $0.message.contains("run \(runID):") })
    }

    @Test func dataFromBeforeDigestsIsSealedByTheUpgrade() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-seal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.db").path
        do {
            let old = try Store(path: path, migrations: Array(Migration.embedded.prefix(2)))
            try old.migrate()
            try OlderSchema.writeData(old)
        }
        let store = try Store(path: path)
        let applied = try store.migrate(actor: "upgrader")
        #expect(applied.map(\.id) == Migration.embedded.map(\.id).filter { $0 >= 3 })
        let seal = try #require(try store.auditRecords().last)
        #expect(seal.action == "audit.seal" && seal.actor == "upgrader")
        try expectVerifies(store)
        #expect(try store.auditReport().covered.imports == 1)
        // From now on the old entry is proved like any other.
        try store.database.execute("UPDATE entries SET vals = CAST(vals || x'00' AS BLOB)")
        let problems = try store.auditReport().problems
        #expect(problems.contains { $0.area == .entries && $0.message.contains("audit record \(seal.seq)") }, "\(problems)")
    }

    @Test func aNewDatabaseIsNotSealed() throws {
        let fixture = try ValidationFixture()
        #expect(try fixture.store.auditRecords().isEmpty)
    }

    /// The digest is HMAC-SHA256: RFC 4231's first test case, with our message framing off.
    @Test func theKeyedDigestIsHMACSHA256() throws {
        let key = AuditKey([UInt8](repeating: 0x0b, count: 20) + [UInt8](repeating: 0, count: 12))
        // HMAC pads a short key with zeros to the block size, so a 20-byte key and the same
        // key padded to 32 bytes give the same MAC.
        let mac = key.hmac(Array("Hi There".utf8))
        #expect(mac == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    /// A type version records whether it is `secure` when it is stored; versions stored before
    /// migration 4 get the flag from their sources; a flag turned off shows in `audit verify`.
    @Test func typeVersionsRecordWhetherTheyAreSecure() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-secure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.db").path
        let pin = "field pin\nsecure\nmask \"0000\"\n"
        do {
            let old = try Store(path: path, migrations: Array(Migration.embedded.prefix(2)))
            try old.migrate()
            try OlderSchema.writeData(old)   // three-digits, not secure
            try old.database.execute("INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor) VALUES ('pin', ?, ?, 'builtin', 'x', 'tester')",
                                     [.text(SHA256.hex(pin)), .text(pin)])
            try old.database.execute("INSERT INTO type_events (name, action, version_id, at, actor) VALUES ('pin', 'add', 2, 'x', 'tester')")
        }
        let store = try Store(path: path)
        try store.migrate()
        #expect(try store.version(.type, name: "pin", hash: SHA256.hex(pin))?.secure == true, "filled from the source")
        #expect(try store.version(.type, name: "three-digits", hash: SHA256.hex(FaultScenario.threeDigits))?.secure == false)
        let added = try store.addVersion(.type, name: "pin2", source: pin.replacingOccurrences(of: "pin", with: "pin2"), actor: "tester")
        #expect(added.version.secure, "set when stored")
        try expectVerifies(store)
        try store.database.execute("UPDATE type_versions SET secure = 0 WHERE name = 'pin'")
        let problems = try store.auditReport().problems
        #expect(problems.contains { $0.area == .types && $0.message.contains("recorded as not secure, but its source says otherwise") }, "\(problems)")
    }
}
