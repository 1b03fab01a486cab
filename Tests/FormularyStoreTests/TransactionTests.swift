import Testing
@testable import FormularyStore

/// Transactions as the body decides them: commit or rollback, savepoints that undo only their
/// own work, and a commit refused when SQLite already rolled the transaction back.
struct TransactionTests {
    func database() throws -> (TemporaryDirectory, Database) {
        let folder = TemporaryDirectory()
        let db = try Database(path: folder.path("t.db"))
        try db.executeScript("CREATE TABLE t (x INTEGER)")
        return (folder, db)
    }

    func count(_ db: Database) throws -> Int64 { try db.scalarInt64("SELECT count(*) FROM t") ?? -1 }

    @Test func theBodyDecidesCommitOrRollback() throws {
        let (_, db) = try database()
        try db.inTransaction { try db.execute("INSERT INTO t VALUES (1)"); return .commit }
        try db.inTransaction { try db.execute("INSERT INTO t VALUES (2)"); return .rollback }
        #expect(try count(db) == 1)
        #expect(!db.isInTransaction)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.inTransaction { try db.execute("INSERT INTO t VALUES (3)"); throw Stop() }
        }
        #expect(try count(db) == 1 && !db.isInTransaction)
    }

    @Test func aSavepointUndoesOnlyItsOwnWork() throws {
        let (_, db) = try database()
        try db.inTransaction {
            try db.execute("INSERT INTO t VALUES (1)")
            try db.inSavepoint { try db.execute("INSERT INTO t VALUES (2)"); return .rollback }
            try db.inSavepoint { try db.execute("INSERT INTO t VALUES (3)"); return .commit }
            struct Stop: Error {}
            _ = try? db.inSavepoint { try db.execute("INSERT INTO t VALUES (4)"); throw Stop() }
            return .commit
        }
        #expect(try db.makeStatement("SELECT x FROM t ORDER BY x").map { $0.int(0) } == [1, 3])
    }

    @Test func aTransactionInsideAnotherIsRefused() throws {
        let (_, db) = try database()
        try db.inTransaction {
            let error = #expect(throws: DatabaseError.self) { try db.inTransaction { .commit } }
            #expect(error?.resultCode == 21 /* SQLITE_MISUSE */)
            return .commit
        }
    }

    /// A body that swallowed an error after which SQLite rolled everything back: committing
    /// would write nothing and say nothing, so it is an error instead.
    @Test func aTransactionSQLiteRolledBackIsNotReportedCommitted() throws {
        let (_, db) = try database()
        let error = #expect(throws: DatabaseError.self) {
            try db.inTransaction {
                try db.execute("INSERT INTO t VALUES (1)")
                try db.executeScript("ROLLBACK")   // what SQLite does by itself after SQLITE_FULL
                try db.execute("INSERT INTO t VALUES (2)")   // autocommit now: on its own
                return .commit
            }
        }
        #expect(error?.extendedCode == 516)
        #expect(error?.description.contains("rolled the transaction back") == true)
        let inSavepoint = #expect(throws: DatabaseError.self) {
            try db.inTransaction {
                try db.inSavepoint { try db.executeScript("ROLLBACK"); return .commit }
                return .commit
            }
        }
        #expect(inSavepoint?.extendedCode == 516)
    }

    @Test func valueReturningTransactionsNest() throws {
        let (_, db) = try database()
        let n = try db.transaction {
            try db.execute("INSERT INTO t VALUES (1)")
            return try db.transaction { () throws -> Int64 in
                try db.execute("INSERT INTO t VALUES (2)")
                return try count(db)
            }
        }
        #expect(n == 2 && !db.isInTransaction)
    }
}

/// Arguments are checked against the statement's placeholders.
struct StatementArgumentsTests {
    @Test func positionalAndNamedArgumentsBind() throws {
        let folder = TemporaryDirectory()
        let db = try Database(path: folder.path("a.db"))
        try db.executeScript("CREATE TABLE t (a TEXT, b INTEGER)")
        try db.execute("INSERT INTO t VALUES (?, ?)", [.text("x"), .integer(1)])
        try db.execute("INSERT INTO t VALUES (?1, ?2)", ["y", 2])
        try db.execute("INSERT INTO t VALUES (:a, :b)", ["a": "z", "b": 3])
        try db.execute("INSERT INTO t VALUES (@a, $b)", StatementArguments(named: ["a": "w", "b": 4]))
        #expect(try db.makeStatement("SELECT a || b FROM t ORDER BY b").map { $0.string(0) } == ["x1", "y2", "z3", "w4"])
    }

    @Test func argumentsThatDoNotFitAreRefusedBeforeRunning() throws {
        let folder = TemporaryDirectory()
        let db = try Database(path: folder.path("a.db"))
        try db.executeScript("CREATE TABLE t (a TEXT, b INTEGER)")
        let cases: [(String, StatementArguments, String)] = [
            ("INSERT INTO t VALUES (?, ?)", ["x"], "1 values for 2 placeholders"),
            ("INSERT INTO t VALUES (?, ?)", ["x", 1, 2], "3 values for 2 placeholders"),
            ("INSERT INTO t VALUES (:a, :b)", ["x", 1], "named placeholder :a"),
            ("INSERT INTO t VALUES (:a, :b)", ["a": "x"], "no value for :b"),
            ("INSERT INTO t VALUES (:a, :b)", ["a": "x", "b": 1, "c": 2], "no placeholder named c"),
            ("INSERT INTO t VALUES (?, :b)", ["b": 1], "placeholder 1 has no name"),
        ]
        for (sql, arguments, says) in cases {
            let error = #expect(throws: DatabaseError.self) { try db.execute(sql, arguments) }
            #expect(error?.resultCode == 25 /* SQLITE_RANGE */ && error?.message.contains(says) == true,
                    "\(sql): \(error.map { "\($0)" } ?? "no error")")
            #expect(error?.description.contains("secret") != true)
        }
        #expect(try db.scalarInt64("SELECT count(*) FROM t") == 0)
    }
}
