import Foundation
import Testing
@testable import FormularyStore

/// What a long-running reader (`serve`) asks on every request to learn whether the database
/// changed: the wal-index header's stamp and `PRAGMA data_version` move exactly when another
/// connection commits, and the audit actions since a head say what happened.
struct StoreChangesTests {
    let path: String

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-changes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        path = folder + "/c.db"
        try Store(path: path).migrate()
    }

    func reader() throws -> Store {
        var configuration = Database.Configuration()
        configuration.readOnly = true
        return try Store(path: path, configuration: configuration)
    }

    @Test func theStampAndTheDataVersionMoveWithEachCommitOfAnotherConnection() throws {
        let reader = try reader()
        #expect(try reader.auditHeadSeq() >= 0)   // the first read opens the wal-index
        let watch = try #require(reader.walIndexWatch())
        let writer = try Store(path: path)

        var stamp = watch.stamp()
        var version = try #require(try reader.dataVersion())
        #expect(try watch.stamp() == stamp && reader.dataVersion() == version, "nothing committed: nothing moved")
        for name in ["a", "b", "c"] {
            let before = try reader.auditHeadSeq()
            _ = try writer.addToken(name: name, scope: "read", hash: String(repeating: name, count: 64), actor: "ada")
            #expect(watch.stamp() != stamp, "a commit rewrites the header")
            #expect(try reader.dataVersion() != version)
            #expect(try reader.auditHeadSeq() == before + 1)
            stamp = watch.stamp()
            version = try #require(try reader.dataVersion())
        }
        // A checkpoint that restarts the log, then one more commit: still seen.
        try (writer.backend as! SQLiteBackend).database.executeScript("PRAGMA wal_checkpoint(TRUNCATE)")
        stamp = watch.stamp()
        _ = try writer.addToken(name: "d", scope: "read", hash: String(repeating: "d", count: 64), actor: "ada")
        #expect(watch.stamp() != stamp)
        #expect(try reader.auditActions(after: 0).contains("token.add"))
        let head = try reader.auditHeadSeq()
        #expect(try reader.auditActions(after: head).isEmpty)
        #expect(try reader.auditActions(after: head - 1) == ["token.add"])
    }

    @Test func thereIsNoWatchWithoutAWALIndex() throws {
        #expect(WALIndexWatch(databasePath: path + ".nowhere") == nil)
        // A file too short to hold the header is not mapped.
        _ = FileManager.default.createFile(atPath: path + ".short-shm", contents: Data(count: 10))
        #expect(WALIndexWatch(databasePath: path + ".short") == nil)
    }
}
