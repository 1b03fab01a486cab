import CSQLite
import Foundation
import Synchronization
import Testing
@testable import FormularyStore

struct DatabaseTests {
    let folder = TemporaryDirectory()

    func open(_ name: String = "test.db") throws -> Database {
        try Database(path: folder.path(name))
    }

    @Test func opensInWALWithForeignKeysAndBusyTimeout() throws {
        let db = try open()
        #expect(try db.scalarString("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarInt64("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt64("PRAGMA synchronous") == 1) // NORMAL
    }

    /// New files get larger pages (fewer reads per batch scan); a file made with SQLite's
    /// default keeps its pages, and the checkpoint follows the page size in bytes.
    @Test func newFilesGetLargePagesAndOldFilesKeepTheirs() throws {
        let db = try open("new.db")
        try db.executeScript("CREATE TABLE t (x)")
        #expect(try db.scalarInt64("PRAGMA page_size") == Int64(Database.newFilePageSize))
        #expect(try db.scalarInt64("PRAGMA wal_autocheckpoint") == 250)

        // An older store: made at 4 KiB by SQLite alone, with a table in it.
        let path = folder.path("old.db")
        var handle: OpaquePointer?
        #expect(sqlite3_open(path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)",
                             nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let old = try Database(path: path)
        #expect(try old.scalarInt64("PRAGMA page_size") == 4_096)
        #expect(try old.scalarInt64("PRAGMA wal_autocheckpoint") == 1_000)
        try old.execute("INSERT INTO t VALUES (2)")
        #expect(try old.scalarInt64("SELECT sum(x) FROM t") == 3)
    }

    @Test func bindsAndReadsEveryStorageClass() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n ANY) STRICT")
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                       [.integer(Int64.min), .real(2.5), .text("é\u{0}x"), .blob([0, 1, 255]), .null])
        try db.execute("INSERT INTO t VALUES (?, ?, ?, ?, ?)",
                       [.integer(Int64.max), .real(-0.0), .text(""), .blob([]), .text("z")])
        let rows = try db.cachedStatement("SELECT i, r, s, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid")
            .map { row in
                (row.int64(0), row.double(1), row.string(2), row.blob(3), row.value(4),
                 row.string(5), row.string(6))
            }
        #expect(rows.count == 2)
        #expect(rows[0].0 == Int64.min && rows[0].1 == 2.5)
        #expect(rows[0].2 == "é\u{0}x") // embedded NUL kept: lengths are bound, not C strings
        #expect(rows[0].3 == [0, 1, 255] && rows[0].4 == .null)
        // The empty string and the empty blob are values, not NULL.
        #expect(rows[1].2 == "" && rows[1].5 == "text")
        #expect(rows[1].3 == [] && rows[1].6 == "blob")
        #expect(rows[1].4 == .text("z"))
    }

    @Test func bindsTypedValuesDirectly() throws {
        let db = try open()
        let select = try db.cachedStatement("SELECT ?1, typeof(?1), ?2, typeof(?2), ?3, ?4, typeof(?4)")
        select.bind(Data([1, 2, 3]), at: 1)
        select.bind(Data(), at: 2)
        select.bind(-7, at: 3)
        select.bind(nil as String?, at: 4)
        let row = try #require(try select.first { ($0.blob(0), $0.string(1), $0.blob(2), $0.string(3), $0.int(4), $0.string(6)) })
        #expect(row.0 == [1, 2, 3] && row.1 == "blob")
        #expect(row.2 == [] && row.3 == "blob")
        #expect(row.4 == -7 && row.5 == "null")
    }

    @Test func cachesStatementsBySQLText() throws {
        let db = try open()
        let a = try db.cachedStatement("SELECT 1")
        let b = try db.cachedStatement("SELECT 1")
        let c = try db.cachedStatement("SELECT 2")
        #expect(a === b)
        #expect(a !== c)
    }

    @Test func reusedStatementStartsFresh() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (1), (2), (3)")
        let select = try db.cachedStatement("SELECT x FROM t WHERE x >= ? ORDER BY x")
        select.bind(2, at: 1)
        #expect(try select.first { $0.int(0) } == 2) // leaves the statement mid-way
        select.bind(1, at: 1)
        #expect(try select.map { $0.int(0) } == [1, 2, 3])
    }

    @Test func errorsCarryCodesAndSQLButNeverValues() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (x TEXT NOT NULL UNIQUE) STRICT")
        try db.execute("INSERT INTO t VALUES (?)", [.text("secret-4111111111111111")])
        let error = try #require(throws: DatabaseError.self) {
            try db.execute("INSERT INTO t VALUES (?)", [.text("secret-4111111111111111")])
        }
        #expect(error.resultCode == SQLITE_CONSTRAINT)
        #expect(error.extendedCode == 2067) // SQLITE_CONSTRAINT_UNIQUE
        #expect(error.sql == "INSERT INTO t VALUES (?)")
        #expect(error.message.contains("UNIQUE"))
        #expect(!"\(error)".contains("4111"))
        #expect(error.isConstraintViolation)
        // STRICT tables refuse a value of the wrong type.
        #expect(throws: DatabaseError.self) {
            try db.execute("CREATE TABLE u (n INTEGER) STRICT")
            try db.execute("INSERT INTO u VALUES (?)", [.text("not a number")])
        }
        #expect(throws: DatabaseError.self) { try db.execute("SELEKT 1") }
    }

    @Test func transactionCommitsOrRollsBack() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (x INTEGER) STRICT")
        try db.transaction { try db.execute("INSERT INTO t VALUES (1)") }
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.scalarInt64("SELECT group_concat(x) FROM t") == 1)
    }

    @Test func nestedTransactionsUseSavepoints() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (x INTEGER) STRICT")
        struct Boom: Error {}
        try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            try? db.transaction {
                try db.execute("INSERT INTO t VALUES (2)")
                throw Boom()
            }
            try db.transaction { try db.execute("INSERT INTO t VALUES (3)") }
        }
        #expect(try db.cachedStatement("SELECT x FROM t ORDER BY x").map { $0.int(0) } == [1, 3])
    }

    @Test func stepHookInjectsFaultsAndTransactionRollsBack() throws {
        let db = try open()
        try db.executeScript("CREATE TABLE t (x INTEGER) STRICT")
        db.stepHook = { sql in sql.hasPrefix("INSERT INTO t VALUES (2)") ? SQLITE_FULL : nil }
        let error = try #require(throws: DatabaseError.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.execute("INSERT INTO t VALUES (2)")
            }
        }
        #expect(error.resultCode == SQLITE_FULL)
        #expect(error.sql == "INSERT INTO t VALUES (2)")
        db.stepHook = nil
        #expect(!db.isInTransaction)
        #expect(try db.scalarInt64("SELECT count(*) FROM t") == 0)
    }

    @Test func busyWriterWaitsThenTimesOut() throws {
        let path = folder.path("busy.db")
        var config = Database.Configuration()
        config.busyTimeoutMilliseconds = 200
        let holder = try Database(path: path)
        let waiter = try Database(path: path, configuration: config)
        try holder.executeScript("CREATE TABLE t (x INTEGER) STRICT")
        try holder.executeScript("BEGIN IMMEDIATE")
        #expect(waiter.busyWaitRecord == BusyWaits.Record())
        let error = try #require(throws: DatabaseError.self) {
            try waiter.transaction(.immediate) { try waiter.execute("INSERT INTO t VALUES (1)") }
        }
        #expect(error.isBusy)
        // The handler waited (retried with its delays) until they added up to the timeout,
        // then gave up once: what the connection did, not how long the machine took.
        let record = waiter.busyWaitRecord
        #expect(record.waitsBegun == 1, "\(record)")
        #expect(record.retries > 1, "\(record)")
        #expect(record.plannedMilliseconds >= 200, "\(record)")
        #expect(record.timeouts == 1, "\(record)")
        #expect(!waiter.isInTransaction)
        try holder.executeScript("COMMIT")
        try waiter.transaction(.immediate) { try waiter.execute("INSERT INTO t VALUES (1)") }
        #expect(try holder.scalarInt64("SELECT count(*) FROM t") == 1)
        // With the lock free the write needed no wait.
        #expect(waiter.busyWaitRecord == record)
    }

    @Test func multipleStatementsNeedExecuteScript() throws {
        let db = try open()
        #expect(throws: DatabaseError.self) { try db.execute("SELECT 1; SELECT 2") }
        try db.executeScript("CREATE TABLE a (x INTEGER) STRICT; -- comment\nCREATE TABLE b (y INTEGER) STRICT;\n")
        #expect(try db.tableExists("a") && db.tableExists("b"))
    }

    @Test func openFailureIsADatabaseError() throws {
        let error = try #require(throws: DatabaseError.self) {
            try Database(path: folder.path("no/such/folder/x.db"))
        }
        #expect(error.resultCode == SQLITE_CANTOPEN)
        var readOnly = Database.Configuration()
        readOnly.readOnly = true
        #expect(throws: DatabaseError.self) { try Database(path: folder.path("absent.db"), configuration: readOnly) }
    }

    @Test func readOnlyConnectionRefusesWrites() throws {
        let path = folder.path("ro.db")
        do {
            let writer = try Database(path: path)
            try writer.executeScript("CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (1)")
        }
        var readOnly = Database.Configuration()
        readOnly.readOnly = true
        let reader = try Database(path: path, configuration: readOnly)
        #expect(try reader.scalarInt64("SELECT x FROM t") == 1)
        let error = try #require(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES (2)") }
        #expect(error.resultCode == SQLITE_READONLY)
    }

    @Test func defaultStepHookReachesNewConnections() throws {
        Database.defaultStepHook = { sql in sql.contains("fault_probe") ? SQLITE_IOERR : nil }
        defer { Database.defaultStepHook = nil }
        let db = try open("hooked.db")
        let error = try #require(throws: DatabaseError.self) { try db.execute("SELECT 1 AS fault_probe") }
        #expect(error.resultCode == SQLITE_IOERR)
        #expect(try db.scalarInt64("SELECT 2") == 2) // other statements still run
    }

    /// A reader opens `immutable` only where the database cannot be written — the folder or
    /// the file refuses it, by `access` or by its mode bits (root included) — and no write-
    /// ahead log with content waits beside it. Such a reader changes nothing and creates no
    /// `-wal` or `-shm` file.
    @Test func readersOpenImmutableOnlyWhereNothingCanWrite() throws {
        let path = folder.path("ro/data.db")
        try FileManager.default.createDirectory(atPath: folder.path("ro"), withIntermediateDirectories: true)
        do {
            let writer = try Database(path: path)
            try writer.executeScript("CREATE TABLE t (x INTEGER) STRICT; INSERT INTO t VALUES (7)")
        }
        let fm = FileManager.default
        #expect(!Database.opensImmutable(path), "a writable file in a writable folder")
        try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path("ro"))
        defer { try? fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path("ro")) }
        #expect(Database.opensImmutable(path), "a folder without write permission")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var readOnly = Database.Configuration()
        readOnly.readOnly = true
        do {
            let reader = try Database(path: path, configuration: readOnly)
            #expect(try reader.scalarInt64("SELECT x FROM t") == 7)
            #expect(throws: DatabaseError.self) { try reader.execute("INSERT INTO t VALUES (8)") }
        }
        #expect(try fm.contentsOfDirectory(atPath: folder.path("ro")) == ["data.db"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // A write-ahead log with content holds committed transactions: never skipped.
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path("ro"))
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path + "-wal"))
        try fm.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path("ro"))
        #expect(!Database.opensImmutable(path))
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path("ro"))
        try fm.removeItem(atPath: path + "-wal")
        try fm.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        #expect(Database.opensImmutable(path), "a file without write permission")
    }

    @Test func immutableURIsEscapeThePath() {
        #expect(Database.immutableURI("/tmp/a b/x?y#z%.db") == "file:///tmp/a%20b/x%3Fy%23z%25.db?mode=ro&immutable=1")
        #expect(Database.immutableURI("rel/ö.db") == "file:rel/%C3%B6.db?mode=ro&immutable=1")
        #expect(Database.immutableURI("//host/x.db") == "file:////host/x.db?mode=ro&immutable=1")
    }
}

/// Opening a new file while another connection holds a lock on it: the switch to WAL needs
/// the file to itself, and SQLite answers busy at once instead of calling the busy handler.
/// Eight `init`s of one new file at once hit this on a loaded machine ("database is locked"
/// at `PRAGMA journal_mode = WAL`); the open now waits like any other statement.
struct WriteAheadLogSwitchTests {
    @Test func openingWaitsForALockHeldDuringTheSwitch() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-wal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.db").path
        // A file still in rollback-journal mode, as a racing process may see it, with a plain
        // connection holding the write lock: the switch, which takes a read lock first, would
        // deadlock waiting for it, so SQLite does not call the busy handler.
        var holder: OpaquePointer?
        #expect(sqlite3_open_v2(path, &holder, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(holder) }
        #expect(sqlite3_exec(holder, "CREATE TABLE t (x); BEGIN IMMEDIATE; INSERT INTO t VALUES (1);", nil, nil, nil) == SQLITE_OK)
        // Released once this thread has started waiting for it (other tests' waits, on other
        // threads, do not count).
        let opener = pthread_self()
        let waiting = Mutex(false), released = Mutex(false)
        Database.waitObserver = { if pthread_equal(pthread_self(), opener) != 0 { waiting.withLock { $0 = true } } }
        defer { Database.waitObserver = nil }
        let holderAddress = Int(bitPattern: holder)
        let release = Thread {
            while !waiting.withLock({ $0 }) { usleep(1_000) }
            // The COMMIT is refused (SQLITE_BUSY) while the opener holds its read lock for the
            // switch; it then keeps its pending lock, which keeps the opener out: so it is
            // retried, as a real process's busy handler would, or both wait for ever.
            while sqlite3_exec(OpaquePointer(bitPattern: holderAddress), "COMMIT", nil, nil, nil) == SQLITE_BUSY {
                usleep(1_000)
            }
            released.withLock { $0 = true }
        }
        release.start()
        let opened = try Database(path: path)
        #expect(released.withLock { $0 }, "the open succeeded only after the lock was released")
        #expect(opened.busyWaitRecord.waitsBegun >= 1 && opened.busyWaitRecord.timeouts == 0)
        #expect(try opened.scalarString("PRAGMA journal_mode") == "wal")
    }
}
