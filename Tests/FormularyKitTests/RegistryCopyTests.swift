import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// `copy --to`: a registry with a history (types added twice and retired, forms, imports with
/// keyed updates, incremental runs with failures, a secure type, tokens) copied SQLite →
/// PostgreSQL → SQLite keeps every row of every table, ids included, the audit head, and a log
/// that verifies on all three; a target that holds data, or the source itself, is refused with
/// nothing written.
struct RegistryCopyTests {
    static let nickV1 = """
        field nick
        length 3...12
        """
    static let nickV2 = """
        field nick
        length 3...12
        pattern /[a-z]+/   message "Nicknames are lowercase letters"
        """

    /// A SQLite registry with every kind of record.
    func history() throws -> ValidationFixture {
        let fixture = try ValidationFixture()
        let store = fixture.store
        try store.addVersion(.type, name: "nick", source: Self.nickV1, actor: "ada")
        try store.addVersion(.type, name: "nick", source: Self.nickV2, actor: "ada")
        try store.addVersion(.type, name: "pin", source: "field pin\nsecure\nlength 4", actor: "ada")
        try store.retire(.type, name: "pin", actor: "bob")
        try store.addVersion(.form, name: "signup", source: ValidationFixture.form, actor: "ada")
        var sample = SampleRows(state: 7)
        try fixture.add(ValidationFixture.columns, (0..<40).map { _ in sample.row() })
        for k in 0..<6 {
            var row = ValidationFixture.good
            if k % 2 == 1 { row[7] = "12" }   // a bad CVV: a secure value in a failure
            _ = try fixture.upsert(ValidationFixture.columns, key: "k\(k)", row)
        }
        _ = try fixture.validate(workers: 1)
        _ = try fixture.upsert(ValidationFixture.columns, key: "k0", ["Ada", nil, nil, nil, "17", nil, nil, nil])
        try fixture.add(ValidationFixture.columns, (0..<5).map { _ in sample.row() })
        _ = try fixture.validate(workers: 1)                 // carries most results forward
        _ = try store.addToken(name: "ci", scope: "submit", hash: String(repeating: "a", count: 64), actor: "ada")
        _ = try store.addToken(name: "old", scope: "read", hash: String(repeating: "b", count: 64), actor: "ada")
        try store.revokeToken(name: "old", actor: "bob")
        return fixture
    }

    /// Every row of every copied table as text (bytes in hex), and the audit key and head.
    func dump(_ store: Store) throws -> [String] {
        var lines: [String] = []
        try store.read {
            for table in RegistryTable.allCases {
                try store.backend.forEachRegistryRow(table) { row in
                    var cells: [String] = [table.name]
                    for (index, column) in table.columns.enumerated() {
                        if row.isNull(index) { cells.append("NULL"); continue }
                        switch column.kind {
                        case .integer, .flag: cells.append(String(row.integer(index)))
                        case .text: cells.append(row.withBytes(index) { String(decoding: $0, as: UTF8.self) })
                        case .bytes: cells.append(row.withBytes(index) { $0.map { String(format: "%02x", $0) }.joined() })
                        }
                    }
                    lines.append(cells.joined(separator: "|"))
                }
            }
            lines.append("key \(try store.backend.auditKeyBytes())")
        }
        let head = try store.auditHead()
        lines.append("head \(head.seq) \(head.hash)")
        return lines
    }

    func expectSame(_ a: [String], _ b: [String], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let difference = zip(a, b).first { $0 != $1 }
        #expect(difference == nil, "first difference:\n  \(difference?.0 ?? "")\n  \(difference?.1 ?? "")",
                sourceLocation: sourceLocation)
        #expect(a.count == b.count, sourceLocation: sourceLocation)
    }

    func service(_ fixture: ValidationFixture) -> CopyService {
        CopyService(workspace: Workspace(settings: WorkspaceSettings(
            databasePath: fixture.folder.appendingPathComponent("test.db").path, pluginFolders: [], actor: "ada")))
    }

    @Test(.needsPostgresServer) func aRegistryGoesToPostgreSQLAndBackUnchanged() throws {
        let fixture = try history()
        let original = try dump(fixture.store)
        #expect(try fixture.store.auditReport().isValid)
        for table in RegistryTable.allCases where table != .entryLayouts {
            #expect(original.contains { $0.hasPrefix(table.name + "|") }, "the history has no \(table.noun)")
        }

        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Store.postgres(url: database.url)
        var heard: [String] = []
        let there = try service(fixture).copy(from: fixture.store, to: postgres, target: "pg") { heard.append($0) ; _ = $1 }
        #expect(heard == RegistryTable.allCases.map(\.noun))
        #expect(there.count("entries") == 51 && there.count("earlier entry versions") == 1)
        #expect(there.count("validation runs") == 2 && there.count("tokens") == 2)
        let head = try fixture.store.auditHead()
        #expect(there.auditSeq == head.seq && there.auditHash == head.hash)
        expectSame(try dump(postgres), original)
        let report = try postgres.auditReport(expectedHead: head.hash)
        #expect(report.isValid, "\(report.problems.map(\.message))")

        let back = fixture.folder.appendingPathComponent("back.db").path
        let sqlite = try Store(path: back)
        _ = try service(fixture).copy(from: postgres, to: sqlite, target: back)
        expectSame(try dump(sqlite), original)
        #expect(try sqlite.auditReport(expectedHead: head.hash).isValid)
        #expect(try sqlite.migrationStatus().allSatisfy { if case .applied = $0 { true } else { false } })

        // The copy goes on as the source would: new rows take the next ids, runs carry
        // forward from the copied ones, and the log still verifies.
        let copyFixture = try ValidationFixture(makeStore: { _ in postgres })
        let ids = try copyFixture.add(ValidationFixture.columns, [ValidationFixture.good])
        #expect(ids == [52])
        let run = try copyFixture.validate(workers: 1)
        #expect(run.id == 3 && run.entriesCarried > 0 && run.status == .complete)
        #expect(try postgres.auditReport().isValid)
    }

    @Test func aTargetThatHoldsDataIsRefusedWithNothingWritten() throws {
        let fixture = try history()
        let other = try ValidationFixture()
        _ = try other.store.addToken(name: "mine", scope: "read", hash: String(repeating: "c", count: 64), actor: "cy")
        let before = try dump(other.store)
        let targetPath = other.folder.appendingPathComponent("test.db").path
        #expect {
            _ = try service(fixture).copy(to: targetPath)
        } throws: { error in
            let error = error as? ServiceError
            return error?.kind == .badInput && error!.message.contains("already holds data (tokens, audit records)")
                && error!.message.contains("nothing was written")
        }
        expectSame(try dump(other.store), before)
    }

    @Test func theSourceItselfIsRefused() throws {
        let fixture = try history()
        let before = try dump(fixture.store)
        let path = fixture.folder.appendingPathComponent("test.db").path
        #expect {
            _ = try service(fixture).copy(to: path)
        } throws: { error in
            (error as? ServiceError)?.message.contains("has the audit key of the database being copied") == true
        }
        // Also through another name of the same file.
        #expect {
            _ = try service(fixture).copy(to: fixture.folder.appendingPathComponent("./test.db").path)
        } throws: { error in
            (error as? ServiceError)?.kind == .badInput
        }
        expectSame(try dump(fixture.store), before)
    }

    @Test func aNewFileAndAnInitialisedEmptyDatabaseBothTakeACopy() throws {
        let fixture = try history()
        let original = try dump(fixture.store)
        let fresh = fixture.folder.appendingPathComponent("fresh.db").path
        let outcome = try service(fixture).copy(to: fresh)
        #expect(outcome.count("entries") == 51)
        expectSame(try dump(try Store(path: fresh)), original)

        let initialised = fixture.folder.appendingPathComponent("init.db").path
        try Store(path: initialised).migrate()
        _ = try service(fixture).copy(to: initialised)
        let copy = try Store(path: initialised)
        expectSame(try dump(copy), original)
        #expect(try copy.auditReport().isValid)
    }

    @Test(.needsPostgresServer) func aCopyThatFailsPartwayWritesNothing() throws {
        let fixture = try history()
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Store.postgres(url: database.url)
        try postgres.migrate()
        // The target refuses the run results, which come after the entries.
        let admin = try PostgresConnection(url: database.url)
        try admin.executeScript("ALTER TABLE run_results ADD CONSTRAINT no_results CHECK (entry_version < 0)")
        #expect {
            _ = try service(fixture).copy(from: fixture.store, to: postgres, target: "pg")
        } throws: { error in
            let failure = error as? RegistryCopyFailure
            return failure?.side == .target && failure?.underlying is PostgresError
        }
        for table in RegistryTable.allCases {
            #expect(try postgres.backend.registryTableIsEmpty(table), "\(table.noun) were left behind")
        }
        #expect(try postgres.auditHead().seq == 0)
        #expect(try postgres.backend.auditKeyBytes() != (try fixture.store.backend.auditKeyBytes()))
        // Without the obstacle the same target takes the copy.
        try admin.executeScript("ALTER TABLE run_results DROP CONSTRAINT no_results")
        _ = try service(fixture).copy(from: fixture.store, to: postgres, target: "pg")
        expectSame(try dump(postgres), try dump(fixture.store))
    }

    @Test(.needsPostgresServer) func theSamePostgreSQLDatabaseIsRefused() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let source = try Store.postgres(url: database.url)
        try source.migrate()
        let fixture = try ValidationFixture(makeStore: { _ in source })
        try fixture.add(ValidationFixture.columns, [ValidationFixture.good])
        let before = try dump(source)
        #expect {
            _ = try service(fixture).copy(from: source, to: try Store.postgres(url: database.url), target: "pg")
        } throws: { error in
            (error as? ServiceError)?.message.contains("has the audit key of the database being copied") == true
        }
        expectSame(try dump(source), before)
    }
}
