import Foundation
import Synchronization
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyKit

/// SQLite failures injected at every step of an import, a `types add` and a migration: the
/// work throws the injected `DatabaseError` (which the CLI turns into exit status 3), leaves
/// no transaction open, and the database reads exactly as before. A later run without the
/// fault then produces exactly what an uninterrupted run produces.
///
/// Each scenario runs the code the command runs, after the store is opened: the first pass
/// counts its N steps (every `sqlite3_step`, reads included, `BEGIN` and `COMMIT` included);
/// then, for every k in 1…N and every fault, a fresh store fails at step k.
struct FaultInjectionTests {
    @Test func importFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.importWithKey.run()
        // A lookup per record, an insert per new one, a history row and an update per changed one.
        #expect(figures.steps > 15 * 2 + 3 * 3 + 2, Comment(rawValue: "\(figures.steps) steps"))
        #expect(figures.statementKinds.isSuperset(of: Set<String>(["BEGIN", "INSERT", "UPDATE", "SELECT", "COMMIT"])),
                Comment(rawValue: "\(figures.statementKinds)"))
    }

    @Test func plainCSVImportFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.importCSV.run()
        #expect(figures.steps > 20)
    }

    @Test func typesAddFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.typesAdd.run()
        #expect(figures.statementKinds.isSuperset(of: Set<String>(["BEGIN", "INSERT", "SAVEPOINT", "RELEASE", "COMMIT"])),
                Comment(rawValue: "\(figures.statementKinds)"))
    }

    @Test func formsAddFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.formsAdd.run()
        #expect(figures.statementKinds.isSuperset(of: Set<String>(["BEGIN", "INSERT", "SAVEPOINT", "RELEASE", "COMMIT"])),
                Comment(rawValue: "\(figures.statementKinds)"))
    }

    @Test func migratingANewFileFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.migrateNewFile.run()
        #expect(figures.statementKinds.isSuperset(of: Set<String>(["BEGIN", "CREATE", "INSERT", "COMMIT"])),
                Comment(rawValue: "\(figures.statementKinds)"))
    }

    @Test func migratingAnOlderSchemaFailsCleanlyAtEveryStep() throws {
        let figures = try FaultScenario.migrateOlderSchema.run()
        #expect(figures.statementKinds.contains("COMMIT"))
    }

    /// A real full disk, not an injected code: the database may grow only a few pages
    /// (`PRAGMA max_page_count`; the values are long enough to need dozens of 16 KiB pages), so
    /// SQLite itself fails inside a statement (or at `COMMIT`) part-way through writing pages,
    /// at a different place for every limit.
    @Test func importIntoADatabaseThatCannotGrowWritesNothing() throws {
        let scenario = FaultScenario.importWithKey
        let folder = try FaultFolder()
        try scenario.prepare(folder.template)
        let before = try DatabaseDump.of(path: folder.template)
        let bulky = (0..<300).map { i in
            #"{"name":"Person \#(i) \#(String(repeating: "x", count: 1_600))","email":"q\#(i)@example.com","age":"30"}"#
        }.joined(separator: "\n")
        var failures = 0, successes = 0
        for slack in 0..<200 {
            let store = try Store(path: folder.template)
            store.clock = FaultScenario.fixedClock
            let pages = try #require(try store.database.scalarInt64("PRAGMA page_count"))
            _ = try store.database.scalarInt64("PRAGMA max_page_count = \(pages + Int64(slack))")
            do {
                try FaultScenario.importRecords(bulky, format: .jsonLines, key: "email", into: store)
                successes += 1
                break   // the limit was large enough: the import went in, as a whole
            } catch let error as DatabaseError {
                failures += 1
                #expect(error.resultCode == 13, Comment(rawValue: "\(slack) spare pages: \(error)"))
            }
            #expect(!store.database.isInTransaction)
            let after = try DatabaseDump.of(path: folder.template)
            #expect(after == before, Comment(rawValue: "\(slack) spare pages: \(DatabaseDump.difference(before, after))"))
        }
        print("fault injection: real disk full under import: \(failures) limits failed cleanly, then \(successes) succeeded")
        #expect(failures >= 30 && successes == 1, "every page limit up to what the import needs fails")
    }

    /// The harness itself: a fault that the work swallows, or a half-written database, must be
    /// reported; otherwise every scenario above would pass vacuously.
    @Test func harnessNoticesAHalfWrittenDatabase() throws {
        // Two transactions: a fault in the second leaves the first committed.
        let scenario = FaultScenario(name: "two transactions", prepare: { _ = try Database(path: $0) }) { store in
            try store.transaction { try store.database.executeScript("CREATE TABLE a (x)") }
            try store.transaction { try store.database.executeScript("CREATE TABLE b (x)") }
        }
        let outcome = try scenario.attempt(failingAt: 4, with: .init(code: 13, sticky: false))
        #expect(outcome.error?.extendedCode == 13)
        #expect(outcome.changed, "table a was committed before the fault")
        let first = try scenario.attempt(failingAt: 2, with: .init(code: 13, sticky: false))
        #expect(!first.changed)
    }
}

// MARK: - Scenarios

/// A starting database and the work of one command on it.
struct FaultScenario {
    var name: String
    /// Builds the starting database at the path (closed when it returns).
    var prepare: (String) throws -> Void
    /// The command's work on an opened store.
    var operation: (Store) throws -> Void

    init(name: String, prepare: @escaping (String) throws -> Void, operation: @escaping (Store) throws -> Void) {
        self.name = name
        self.prepare = prepare
        self.operation = operation
    }

    static let signupForm = """
        form signup
        field name   name          required
        field email  email         required
        field age    age(min: 18)
        field card   credit-card

        """

    static let visa = """
        field visa extends credit-card
        pattern /4.*/ as visa-prefix message "Visa cards start with 4"
        accept "4111 1111 1111 1111"
        reject "5500 0000 0000 0004" visa-prefix

        """

    static let visaTwo = """
        field visa extends credit-card
        label "Visa card"
        pattern /4.*/ as visa-prefix message "Visa cards start with 4"
        accept "4111 1111 1111 1111"
        reject "5500 0000 0000 0004" visa-prefix

        """

    static let threeDigits = """
        field three-digits
        mask "000"
        accept "123"
        reject "12a" mask

        """

    /// Opens a migrated store at `path` with a fixed clock.
    static func migratedStore(_ path: String) throws -> Store {
        let store = try Store(path: path)
        store.clock = FaultScenario.fixedClock
        try store.migrate()
        return store
    }

    static let fixedClock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }

    /// What `forms add` / `types add` do once the files are read: load, admit, store.
    static func add(_ files: [(path: String, text: String)], kind: FormularyStore.DefinitionKind, to store: Store) throws {
        try store.requireCurrentSchema()
        let pluginFiles = files.map { PluginFile(path: $0.path, bytes: Array($0.text.utf8),
                                                 source: .folder(PluginFolder(path: ".", origin: .option))) }
        let registry = try Registry.load(folders: [], store: store, extraFiles: pluginFiles)
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let admitted = try files.map { file in
            let name = String(file.text.split(separator: " ")[1].prefix { !$0.isWhitespace })
            return try (kind == .type ? registry.admit(type: name, today: today) : registry.admit(form: name)).get()
        }
        _ = try store.transaction {
            try admitted.map { try store.addVersion(kind, name: $0.name, source: $0.source, actor: "tester") }
        }
    }

    /// What `import` does once the store is open: check the schema, load the registry, import.
    static func importRecords(_ text: String, format: RecordFormat, key: String?, into store: Store) throws {
        try store.requireCurrentSchema()
        let registry = try Registry.load(folders: [], store: store)
        guard registry.forms["signup"] != nil else { throw StoreError.notInDatabase(kind: .form, name: "signup") }
        let reader = format.makeReader(source: MemoryByteSource(text), fileName: "records.\(format.rawValue)")
        _ = try Importer(options: .init(form: "signup", keyField: key, actor: "tester")).run(reader, into: store)
    }

    /// A database with the sign-up form and five keyed entries, then 20 JSON Lines records
    /// keyed by email: 3 changed, 2 unchanged, 15 new, over two column sets (a new layout),
    /// so that every statement an import can run is reached.
    static var importWithKey: FaultScenario { FaultScenario(name: "import --key", prepare: { path in
        let store = try migratedStore(path)
        try add([("signup.form", signupForm)], kind: .form, to: store)
        let first = (0..<5).map { i in
            #"{"name":"Person \#(i)","email":"p\#(i)@example.com","age":"\#(30 + i)","card":"4111 1111 1111 1111"}"#
        }
        try importRecords(first.joined(separator: "\n"), format: .jsonLines, key: "email", into: store)
    }) { store in
        var lines: [String] = []
        for i in 0..<20 {
            let age = i < 3 ? 40 + i : 30 + i   // records 0…2 change, 3…4 stay as they were
            if i % 4 == 3 && i >= 5 {
                lines.append(#"{"email":"p\#(i)@example.com","name":"Late \#(i)","nickname":"n\#(i)"}"#)
            } else {
                lines.append(#"{"name":"Person \#(i)","email":"p\#(i)@example.com","age":"\#(age)","card":"4111 1111 1111 1111"}"#)
            }
        }
        try importRecords(lines.joined(separator: "\n"), format: .jsonLines, key: "email", into: store)
    } }

    /// A plain CSV import (no key) into a database that has the form but no entries.
    static var importCSV: FaultScenario { FaultScenario(name: "import csv", prepare: { path in
        let store = try migratedStore(path)
        try add([("signup.form", signupForm)], kind: .form, to: store)
    }) { store in
        let csv = "name,email,age,card\n" + (0..<5).map { "Person \($0),p\($0)@example.com,3\($0),4111111111111111" }
            .joined(separator: "\n") + "\n"
        try importRecords(csv, format: .csv, key: nil, into: store)
    } }

    /// `types add visa.field three-digits.field`: a new version of a stored type and a new type,
    /// in one transaction.
    static var typesAdd: FaultScenario { FaultScenario(name: "types add", prepare: { path in
        let store = try migratedStore(path)
        try add([("visa.field", visa)], kind: .type, to: store)
    }) { store in
        try add([("visa.field", visaTwo), ("three-digits.field", threeDigits)], kind: .type, to: store)
    } }

    /// `forms add signup.form` on a database that has a stored type (the form uses built-in ones).
    static var formsAdd: FaultScenario { FaultScenario(name: "forms add", prepare: { path in
        let store = try migratedStore(path)
        try add([("visa.field", visa)], kind: .type, to: store)
    }) { store in
        try add([("signup.form", signupForm)], kind: .form, to: store)
    } }

    /// `init` on a new, empty file: every migration.
    static var migrateNewFile: FaultScenario { FaultScenario(name: "init (new file)", prepare: { path in
        _ = try Database(path: path)
    }) { store in
        try store.migrate()
    } }

    /// `migrate` on a database that has migration 1 and data: the pending ones.
    static var migrateOlderSchema: FaultScenario { FaultScenario(name: "migrate (older schema)", prepare: { path in
        let first = Array(Migration.embedded.prefix(1))
        let store = try Store(path: path, migrations: first)
        store.clock = fixedClock
        try store.migrate()
        try OlderSchema.writeData(store)
    }) { store in
        try store.migrate()
    } }
}

// MARK: - The harness

/// An injected failure: its SQLite result code, and whether it persists (a full disk stays
/// full: every later step fails too, including the rollback of savepoints).
struct InjectedFault: Sendable, CustomStringConvertible {
    var code: Int32
    var sticky: Bool

    static let all: [InjectedFault] = [
        .init(code: 13, sticky: true),      // SQLITE_FULL, and the disk stays full
        .init(code: 778, sticky: false),    // SQLITE_IOERR_WRITE, once
        .init(code: 5, sticky: false),      // SQLITE_BUSY, once
    ]

    var description: String { "code \(code)\(sticky ? " from then on" : " once")" }
}

/// Counts the steps of one connection and fails the chosen one.
final class StepCounter: Sendable {
    private let state = Mutex<(count: Int, sql: [String])>((0, []))
    let failAt: Int?
    let fault: InjectedFault?
    let recordsSQL: Bool

    init(failAt: Int? = nil, fault: InjectedFault? = nil, recordsSQL: Bool = false) {
        self.failAt = failAt
        self.fault = fault
        self.recordsSQL = recordsSQL
    }

    var count: Int { state.withLock { $0.count } }
    var statements: [String] { state.withLock { $0.sql } }

    var hook: Database.StepHook {
        { [self] sql in
            let n = state.withLock { state in
                state.count += 1
                if recordsSQL { state.sql.append(sql) }
                return state.count
            }
            guard let failAt, let fault, n == failAt || (fault.sticky && n > failAt) else { return nil }
            return fault.code
        }
    }
}

/// What a scenario run measured.
struct FaultFigures {
    var steps: Int
    var injections: Int
    var statementKinds: Set<String>
}

extension FaultScenario {
    struct Attempt {
        var error: DatabaseError?
        var otherError: (any Error)?
        var leftTransactionOpen: Bool
        var changed: Bool
        var before: [String]
        var after: [String]
    }

    /// Fails step `k` of the operation on a fresh copy of the starting database.
    func attempt(failingAt k: Int, with fault: InjectedFault) throws -> Attempt {
        let folder = try FaultFolder()
        try prepare(folder.template)
        let before = try DatabaseDump.of(path: folder.template)
        return try attempt(at: folder.template, failingAt: k, with: fault, before: before)
    }

    private func attempt(at path: String, failingAt k: Int, with fault: InjectedFault,
                         before: [String]) throws -> Attempt {
        var result = Attempt(leftTransactionOpen: false, changed: false, before: before, after: [])
        do {
            let store = try Store(path: path)
            store.clock = FaultScenario.fixedClock
            store.database.stepHook = StepCounter(failAt: k, fault: fault).hook
            do {
                try operation(store)
            } catch let error as DatabaseError {
                result.error = error
            } catch {
                result.otherError = error
            }
            result.leftTransactionOpen = store.database.isInTransaction
            store.database.stepHook = nil
        }
        result.after = try DatabaseDump.of(path: path)
        result.changed = result.after != before
        return result
    }

    /// Counts the steps, injects every fault at every step, then checks that a run without
    /// faults on the database the failures left behind gives what an uninterrupted run gives.
    func run(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> FaultFigures {
        let folder = try FaultFolder()
        try prepare(folder.template)
        let before = try DatabaseDump.of(path: folder.template)

        // The uninterrupted run, counted.
        try FileManager.default.copyItem(atPath: folder.template, toPath: folder.counted)
        let counter = StepCounter(recordsSQL: true)
        do {
            let store = try Store(path: folder.counted)
            store.clock = FaultScenario.fixedClock
            store.database.stepHook = counter.hook
            try operation(store)
            store.database.stepHook = nil
        }
        let expected = try DatabaseDump.of(path: folder.counted)
        let steps = counter.count
        #expect(steps > 0 && expected != before, Comment(rawValue: "\(name): the uninterrupted run changes the database"),
                sourceLocation: sourceLocation)
        #expect(counter.statements.last?.hasPrefix("COMMIT") == true || counter.statements.last?.hasPrefix("RELEASE") == true,
                Comment(rawValue: "\(name): the last step commits (\(counter.statements.last ?? "none"))"), sourceLocation: sourceLocation)

        try FileManager.default.copyItem(atPath: folder.template, toPath: folder.work)
        var injections = 0
        for k in 1...steps {
            for fault in InjectedFault.all {
                let attempt = try attempt(at: folder.work, failingAt: k, with: fault, before: before)
                injections += 1
                let sql = counter.statements[k - 1]
                let place = "\(name): \(fault) at step \(k) of \(steps) (`\(sql.prefix(60))`)"
                if let error = attempt.error {
                    #expect(error.extendedCode == fault.code, Comment(rawValue: "\(place): \(error)"), sourceLocation: sourceLocation)
                } else {
                    Issue.record(Comment(rawValue: "\(place): expected the injected DatabaseError, got \(attempt.otherError.map { "\($0)" } ?? "success")"),
                                 sourceLocation: sourceLocation)
                }
                #expect(!attempt.leftTransactionOpen, Comment(rawValue: "\(place): a transaction stayed open"), sourceLocation: sourceLocation)
                if attempt.changed {
                    Issue.record(Comment(rawValue: "\(place): the database changed:\n\(DatabaseDump.difference(before, attempt.after))"),
                                 sourceLocation: sourceLocation)
                    try FileManager.default.removeItem(atPath: folder.work)
                    try FileManager.default.copyItem(atPath: folder.template, toPath: folder.work)
                }
            }
        }
        // The figure docs/reliability.md quotes.
        print("fault injection: \(name): \(steps) steps × \(InjectedFault.all.count) faults = \(injections) injections")

        // The database every failure left behind takes the work as if nothing had happened.
        do {
            let store = try Store(path: folder.work)
            store.clock = FaultScenario.fixedClock
            try operation(store)
        }
        // A migration draws a new random digest key each time: compare what does not derive
        // from it, and check that the retried database verifies.
        let retried = try DatabaseDump.of(path: folder.work, maskingKey: true)
        let expectedMasked = try DatabaseDump.of(path: folder.counted, maskingKey: true)
        #expect(try Store(path: folder.work).auditReport().problems == [], sourceLocation: sourceLocation)
        #expect(retried == expectedMasked, Comment(rawValue: "\(name): a run after the failures differs from an uninterrupted one:\n"
                + DatabaseDump.difference(expectedMasked, retried)), sourceLocation: sourceLocation)

        let kinds = Set(counter.statements.map { String($0.prefix { !$0.isWhitespace && $0 != ";" }).uppercased() })
        return FaultFigures(steps: steps, injections: injections, statementKinds: kinds)
    }
}

/// A temporary folder with the scenario's database files.
final class FaultFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("formulary-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    var template: String { url.appendingPathComponent("template.db").path }
    var counted: String { url.appendingPathComponent("counted.db").path }
    var work: String { url.appendingPathComponent("work.db").path }
}

/// A canonical text dump of a database: its schema, `user_version`, and every table's rows
/// (rowid tables in rowid order with the rowid, `WITHOUT ROWID` tables sorted).
enum DatabaseDump {
    /// Every schema object and row, as text. `maskingKey` replaces the random digest key and
    /// what derives from it (audit hashes and details) with placeholders.
    static func of(path: String, maskingKey: Bool = false) throws -> [String] {
        var configuration = Database.Configuration()
        configuration.create = false
        let db = try Database(path: path, configuration: configuration)
        var lines = ["user_version \(try db.scalarInt64("PRAGMA user_version") ?? 0)"]
        let schema = try db.makeStatement("SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name")
            .map { ($0.string(0), $0.string(1), $0.string(2), $0.optionalString(3) ?? "") }
        for (type, name, table, sql) in schema {
            lines.append("schema \(type) \(name) on \(table): \(sql)")
        }
        for (type, name, _, _) in schema where type == "table" {
            let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            let withoutRowID = try db.scalarInt64("SELECT wr FROM pragma_table_list WHERE name = ? AND schema = 'main'",
                                                  [.text(name)]) == 1
            let sql = withoutRowID ? "SELECT * FROM \(quoted)" : "SELECT rowid, * FROM \(quoted) ORDER BY rowid"
            let keyDerived: [String: Set<Int>] = ["audit_key": [2], "audit_head": [3],
                                                  "audit_log": [6, 7, 8]]   // rowid first: details, prev_hash, hash
            let masked = maskingKey ? keyDerived[name] ?? [] : []
            var rows = try db.makeStatement(sql).map { row in
                (0..<row.columnCount).map { masked.contains($0) ? "<key-derived>" : String(describing: row.value($0)) }
                    .joined(separator: " | ")
            }
            if withoutRowID { rows.sort() }
            lines += rows.map { "\(name): \($0)" }
        }
        return lines
    }

    /// The lines only one side has, for failure messages.
    static func difference(_ expected: [String], _ actual: [String]) -> String {
        let missing = expected.filter { !actual.contains($0) }.prefix(10).map { "  - " + $0 }
        let extra = actual.filter { !expected.contains($0) }.prefix(10).map { "  + " + $0 }
        return (missing + extra).joined(separator: "\n")
    }
}

/// Data as the code before migration 3 wrote it (no digests, no `audit_key`), for tests that
/// upgrade an older database.
enum OlderSchema {
    static func writeData(_ store: Store) throws {
        let db = store.database
        let at = "2027-01-15T08:00:00.000Z"
        try store.transaction {
            try db.execute("INSERT INTO type_versions (name, hash, source, origin, recorded_at, actor) VALUES (?, ?, ?, 'database', ?, 'tester')",
                           [.text("three-digits"), .text(SHA256.hex(FaultScenario.threeDigits)),
                            .text(FaultScenario.threeDigits), .text(at)])
            try db.execute("INSERT INTO type_events (name, action, version_id, at, actor) VALUES ('three-digits', 'add', 1, ?, 'tester')",
                           [.text(at)])
            try store.appendAudit(actor: "tester", action: "types.add", subject: "three-digits",
                                  details: ["hash": .string(SHA256.hex(FaultScenario.threeDigits))])
            try db.execute("INSERT INTO forms (name) VALUES ('signup')")
            try db.execute("INSERT INTO imports (form_id, at, actor, source) VALUES (1, ?, 'tester', 'old.csv')", [.text(at)])
            try db.execute("INSERT INTO entry_layouts (fields) VALUES (?)", [.blob(EntryValues.encode(["name", "email"]))])
            try db.execute("INSERT INTO entries (form_id, key, layout_id, vals, created_in) VALUES (1, NULL, 1, ?, 1)",
                           [.blob(EntryValues.encode(["Ann", "ann@example.com"]))])
            try store.appendAudit(actor: "tester", action: "import", subject: "signup",
                                  details: ["file": "old.csv", "records": 1, "added": 1])
        }
    }
}
