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

    @Test func thereIsNoWatchOutsideWALMode() throws {
        let rollback = path + ".rollback"
        let store = try Store(path: rollback)
        try store.migrate()
        try (store.backend as! SQLiteBackend).database.executeScript("PRAGMA journal_mode = DELETE")
        #expect(try store.auditHeadSeq() >= 0)
        #expect(store.walIndexWatch() == nil)
        // Asking made no wal-index for a database that does not use one.
        #expect(!FileManager.default.fileExists(atPath: rollback + "-shm"))
    }

    /// POSIX locks belong to the process: a descriptor of `-shm` opened and closed beside
    /// SQLite's drops SQLite's own lock on it. Then the `sqlite3` shell, closing the last
    /// connection it believes there is, checkpoints and removes `-wal` and `-shm` under the
    /// reader that is still open. With the watch on SQLite's own mapping, the reader's lock
    /// stays and both files with it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"), "needs the sqlite3 shell (make deps)"))
    func aWatchLeavesTheReadersLockOnTheWALIndex() throws {
        let reader = try reader()
        #expect(try reader.auditHeadSeq() >= 0)
        var watch = try #require(reader.walIndexWatch())
        watch = try #require(reader.walIndexWatch())   // a second look drops nothing either
        // SQLite's readers hold a read lock on the wal-index (its "dead man switch") for as
        // long as they are open: the lock that tells another process not to reset it.
        #expect(Self.locksHeld(on: path + "-shm") > 0, "this process holds no lock on the wal-index")
        let stamp = watch.stamp()
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path, "BEGIN; CREATE TABLE shell_note (x); DROP TABLE shell_note; COMMIT; SELECT count(*) FROM audit_log;"]
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        #expect(FileManager.default.fileExists(atPath: path + "-wal") && FileManager.default.fileExists(atPath: path + "-shm"),
                "the shell removed the write-ahead log of a database another process has open")
        #expect(watch.stamp() != stamp, "the shell's commit is seen through the watch")
    }

    /// How many POSIX locks this process holds on the file at `path`, from `/proc/locks`
    /// (Linux): `ID: POSIX ADVISORY READ PID MAJOR:MINOR:INODE START END`.
    static func locksHeld(on path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return 0 }
        let pid = String(getpid()), inode = String(status.st_ino)
        return table.split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 6 && fields[1] == "POSIX" && fields[4] == pid
                && fields[5].split(separator: ":").last.map(String.init) == inode
        }.count
    }
}
