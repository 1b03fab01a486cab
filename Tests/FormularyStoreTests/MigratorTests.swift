import Foundation
import Synchronization
import Testing
@testable import FormularyStore

struct MigratorTests {
    let folder = TemporaryDirectory()

    /// The embedded copies must equal migrations/*.sql byte for byte: a migration edited or
    /// added without running scripts/embed-migrations.sh fails here.
    @Test func embeddedMigrationsEqualTheFiles() throws {
        let directory = repositoryRoot.appendingPathComponent("migrations")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!names.isEmpty)
        #expect(Migration.embedded.map(\.name) == names)
        for migration in Migration.embedded {
            let file = Array(try Data(contentsOf: directory.appendingPathComponent(migration.name)))
            let embedded = Array(migration.sql.utf8)
            // Compared as a Bool: a failure names the file and the first differing byte instead
            // of printing both copies.
            let firstDifference = zip(embedded, file).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? (embedded.count == file.count ? nil : min(embedded.count, file.count))
            #expect(firstDifference == nil,
                    "\(migration.name) differs from its embedded copy at byte \(firstDifference ?? 0): run scripts/embed-migrations.sh")
            #expect(migration.name.hasPrefix(String(format: "%04d_", migration.id)))
        }
        #expect(try Migrator().migrations.count == names.count)
    }

    @Test func migratesANewFileOnceAndReportsStatus() throws {
        let db = try Database(path: folder.path("m.db"))
        let migrator = try Migrator()
        let pending = try migrator.status(of: db)
        #expect(pending.allSatisfy { if case .pending = $0 { true } else { false } })
        #expect(pending.count == Migration.embedded.count)

        let applied = try migrator.migrate(db)
        #expect(applied.map(\.id) == Migration.embedded.map(\.id))
        #expect(applied.first?.sha256 == SHA256.hex(Migration.embedded[0].sql))
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try migrator.isUpToDate(db))
        // Every table the migrations create is STRICT (views cannot be).
        let tables = try db.cachedStatement("SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%'")
            .map { ($0.string(0), $0.int(1)) }
        #expect(tables.count > 8)
        for (name, strict) in tables { #expect(strict == 1, "\(name) is not STRICT") }
    }

    @Test func appliesOnlyWhatIsPending() throws {
        let db = try Database(path: folder.path("step.db"))
        let first = try Migrator(migrations: Array(Migration.embedded.prefix(1)))
        #expect(try first.migrate(db).map(\.id) == [1])
        let all = try Migrator()
        let status = try all.status(of: db)
        #expect(status.first.map { if case .applied = $0 { true } else { false } } == true)
        #expect(status.dropFirst().allSatisfy { if case .pending = $0 { true } else { false } })
        #expect(try all.migrate(db).map(\.id) == Migration.embedded.dropFirst().map(\.id))
    }

    @Test func refusesAModifiedMigration() throws {
        let db = try Database(path: folder.path("mod.db"))
        try Migrator().migrate(db)
        var changed = Migration.embedded
        changed[0].sql += "-- an innocent comment\n"
        let error = try #require(throws: MigrationError.self) { try Migrator(migrations: changed).migrate(db) }
        guard case .modified(let id, let name, _, _) = error else {
            Issue.record("expected .modified, got \(error)"); return
        }
        #expect(id == 1 && name == "0001_initial.sql")
        #expect("\(error)".contains("0001_initial.sql"))
        #expect(throws: MigrationError.self) { try Migrator(migrations: changed).status(of: db) }
    }

    @Test func refusesAMigrationItDoesNotKnow() throws {
        let db = try Database(path: folder.path("new.db"))
        let newer = Migration.embedded + [Migration(id: 99, name: "0099_future.sql",
                                                      sql: "CREATE TABLE future (x INTEGER) STRICT;\n")]
        try Migrator(migrations: newer).migrate(db)
        let error = try #require(throws: MigrationError.self) { try Migrator().migrate(db) }
        #expect(error == .unknown(id: 99, name: "0099_future.sql"))
        #expect("\(error)".contains("0099_future.sql"))
    }

    @Test func failedMigrationLeavesNoTrace() throws {
        let db = try Database(path: folder.path("fail.db"))
        let broken = [Migration(id: 1, name: "0001_a.sql", sql: "CREATE TABLE a (x INTEGER) STRICT;\n"),
                      Migration(id: 2, name: "0002_b.sql",
                                sql: "CREATE TABLE b (y INTEGER) STRICT;\nINSERT INTO nowhere VALUES (1);\n")]
        #expect(throws: DatabaseError.self) { try Migrator(migrations: broken).migrate(db) }
        // The pending migrations are one transaction: the good first one is rolled back too,
        // so the file is never left at a schema between two versions.
        #expect(try !db.tableExists("a"))
        #expect(try !db.tableExists("b"))
        #expect(try !db.tableExists("schema_migrations"))
        #expect(!db.isInTransaction)

        // On a database with migration 1 applied, a failure in 3 rolls 2 back.
        try Migrator(migrations: Array(broken.prefix(1))).migrate(db)
        let three = [broken[0], Migration(id: 2, name: "0002_c.sql", sql: "CREATE TABLE c (z INTEGER) STRICT;\n"),
                     Migration(id: 3, name: "0003_b.sql", sql: broken[1].sql)]
        #expect(throws: DatabaseError.self) { try Migrator(migrations: three).migrate(db) }
        #expect(try db.tableExists("a") && !db.tableExists("c"))
        #expect(try Migrator(migrations: three).applied(in: db).map(\.id) == [1])
    }

    @Test func refusesAnUnorderedList() {
        let list = [Migration(id: 2, name: "0002_b.sql", sql: ""), Migration(id: 1, name: "0001_a.sql", sql: "")]
        #expect(throws: MigrationError.self) { try Migrator(migrations: list) }
    }

    /// Eight connections (each its own thread, as separate processes would be) race to migrate
    /// the same new file: every migration is applied exactly once and nobody fails.
    @Test func racingMigratorsApplyEachMigrationOnce() throws {
        let path = folder.path("race.db")
        let outcomes = Mutex<[Result<Int, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let result = Result { () throws -> Int in
                let db = try Database(path: path)
                return try Migrator().migrate(db).count
            }
            outcomes.withLock { $0.append(result) }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 8)
        var total = 0
        for result in results {
            switch result {
            case .success(let count): total += count
            case .failure(let error): Issue.record("a migrator failed: \(error)")
            }
        }
        #expect(total == Migration.embedded.count)
        let db = try Database(path: path)
        #expect(try db.scalarInt64("SELECT count(*) FROM schema_migrations") == Int64(Migration.embedded.count))
    }

    /// Another application's database (tables, no bookkeeping) is refused by `status` and
    /// `migrate` alike, and `migrate` creates nothing in it, not even its bookkeeping table.
    @Test func refusesAnotherApplicationsDatabase() throws {
        let db = try Database(path: folder.path("other.db"))
        try db.executeScript("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); CREATE VIEW recent AS SELECT * FROM notes")
        let migrator = try Migrator()
        #expect(throws: MigrationError.foreignDatabase(tables: ["notes", "recent"])) { try migrator.status(of: db) }
        #expect(throws: MigrationError.foreignDatabase(tables: ["notes", "recent"])) { try migrator.migrate(db) }
        #expect(try db.scalarInt64("SELECT count(*) FROM sqlite_schema") == 2)
        #expect(MigrationError.foreignDatabase(tables: ["a", "b", "c", "d", "e"]).description.contains("a, b, c and 2 more"))
        // A file without any table is a new database, not a foreign one.
        let empty = try Database(path: folder.path("empty.db"))
        #expect(try migrator.migrate(empty).count == Migration.embedded.count)
    }
}
