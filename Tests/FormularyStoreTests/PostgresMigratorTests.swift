import Foundation
import Synchronization
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// The PostgreSQL migrations: embedded byte for byte, checksummed like SQLite's, applied once
/// under the advisory lock however many processes start at once, and the schema's rules on
/// the audit log as SQLite's triggers have them.
struct PostgresMigratorTests {
    /// The embedded copies must equal migrations/postgres/*.sql byte for byte.
    @Test func embeddedMigrationsEqualTheFiles() throws {
        let directory = repositoryRoot.appendingPathComponent("migrations/postgres")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(!names.isEmpty)
        #expect(Migration.embeddedPostgres.map(\.name) == names)
        for migration in Migration.embeddedPostgres {
            let file = Array(try Data(contentsOf: directory.appendingPathComponent(migration.name)))
            #expect(Array(migration.sql.utf8) == file,
                    "\(migration.name) differs from its embedded copy: run scripts/embed-migrations.sh")
            #expect(migration.name.hasPrefix(String(format: "%04d_", migration.id)))
        }
        #expect(try PostgresMigrator().migrations.count == names.count)
    }

    @Test(.needsPostgres) func migratesANewDatabaseOnceAndReportsStatus() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let migrator = try PostgresMigrator()
        let pending = try migrator.status(of: db)
        #expect(pending.count == Migration.embeddedPostgres.count)
        #expect(pending.allSatisfy { if case .pending = $0 { true } else { false } })

        let applied = try migrator.migrate(db)
        #expect(applied.map(\.id) == Migration.embeddedPostgres.map(\.id))
        #expect(applied.first?.sha256 == SHA256.hex(Migration.embeddedPostgres[0].sql))
        #expect(try migrator.migrate(db).isEmpty)
        #expect(try migrator.isUpToDate(db))
        #expect(try db.execute("SELECT sha256 FROM schema_migrations ORDER BY id").map { try $0.string(0) }
                == Migration.embeddedPostgres.map(\.sha256))
        // What the migrations put in: the head before the first record, a 32-byte audit key.
        let head = try #require(try db.execute("SELECT seq, hash FROM audit_head").first)
        #expect(try head.int64(0) == 0 && head.string(1) == String(repeating: "0", count: 64))
        #expect(try db.execute("SELECT key FROM audit_key").first?.bytes(0).count == 32)
    }

    @Test(.needsPostgres) func appliesOnlyWhatIsPending() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        #expect(try PostgresMigrator(migrations: Array(Migration.embeddedPostgres.prefix(1))).migrate(db).map(\.id) == [1])
        let all = try PostgresMigrator()
        let status = try all.status(of: db)
        #expect(status.first.map { if case .applied = $0 { true } else { false } } == true)
        #expect(status.dropFirst().allSatisfy { if case .pending = $0 { true } else { false } })
        #expect(try all.migrate(db).map(\.id) == Migration.embeddedPostgres.dropFirst().map(\.id))
    }

    @Test(.needsPostgres) func aChangedOrUnknownMigrationIsRefused() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let first = Migration.embeddedPostgres[0]
        try PostgresMigrator(migrations: [first]).migrate(db)
        var edited = first
        edited.sql += "\n-- edited after it was applied\n"
        #expect(throws: MigrationError.modified(id: 1, name: first.name, recorded: first.sha256, expected: edited.sha256)) {
            try PostgresMigrator(migrations: [edited]).migrate(db)
        }
        #expect(throws: MigrationError.unknown(id: 1, name: first.name)) {
            _ = try PostgresMigrator(migrations: []).status(of: db)
        }
    }

    @Test(.needsPostgres) func anotherApplicationsDatabaseIsLeftAlone() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        try db.executeScript("CREATE TABLE invoices (id BIGINT); CREATE VIEW open_invoices AS SELECT id FROM invoices")
        #expect(throws: MigrationError.foreignDatabase(tables: ["invoices", "open_invoices"])) {
            try PostgresMigrator().migrate(db)
        }
        #expect(try PostgresMigrator.tables(in: db) == ["invoices", "open_invoices"])
    }

    @Test(.needsPostgres) func aFailingMigrationLeavesTheDatabaseAsItWas() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let db = try database.connect()
        let broken = Migration(id: 2, name: "0002_broken.sql",
                               sql: "CREATE TABLE half (id BIGINT);\nALTER TABLE no_such_table ADD COLUMN x BIGINT;\n")
        let error = #expect(throws: PostgresError.self) {
            try PostgresMigrator(migrations: [Migration.embeddedPostgres[0], broken]).migrate(db)
        }
        #expect(error?.sqlState == "42P01")
        #expect(try PostgresMigrator.tables(in: db).isEmpty)
        #expect(!db.isInTransaction)
    }

    /// Eight processes' `init` at once on a new database: the advisory lock queues them, and
    /// each migration is applied exactly once (without it, they fail on each other's tables).
    @Test(.needsPostgres) func eightConcurrentInitsApplyEachMigrationOnce() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let url = database.url
        let workers = 8
        let outcomes = Mutex<[Result<[Int], any Error>]>([])
        let connected = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<workers {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                let outcome: Result<[Int], any Error>
                do {
                    let db = try PostgresConnection(url: url)
                    connected.signal()
                    go.wait()
                    outcome = .success(try PostgresMigrator().migrate(db).map(\.id))
                } catch {
                    connected.signal()
                    outcome = .failure(error)
                }
                outcomes.withLock { $0.append(outcome) }
            }
            thread.start()
        }
        for _ in 0..<workers { connected.wait() }
        for _ in 0..<workers { go.signal() }
        done.wait()

        let results = outcomes.withLock { $0 }
        #expect(results.count == workers)
        var applied: [Int] = []
        for result in results {
            switch result {
            case .success(let ids): applied += ids
            case .failure(let error): Issue.record("an init failed: \(error)")
            }
        }
        #expect(applied.sorted() == Migration.embeddedPostgres.map(\.id))
        let db = try database.connect()
        #expect(try db.execute("SELECT id FROM schema_migrations ORDER BY id").map { try $0.int(0) }
                == Migration.embeddedPostgres.map(\.id))
        #expect(try db.scalarInt64("SELECT count(*) FROM audit_key") == 1)
        #expect(try db.scalarInt64("SELECT count(*) FROM audit_head") == 1)
    }
}
