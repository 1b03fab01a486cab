import Foundation
import Synchronization
import Testing
@testable import FormularyStore
@testable import FormularyPostgres

/// ``PostgresBackend`` against ``SQLiteBackend``: one scenario per group of ``StoreBackend``
/// runs on both, and what each answers is compared, call by call.
struct PostgresBackendTests {
    static let clock = Date(timeIntervalSince1970: 1_796_083_200)  // 2026-12-01T00:00:00Z

    /// Runs the same calls on a backend and writes down every answer (applied-at times and
    /// audit key bytes differ by nature and are left out).
    static func transcript(_ backend: some StoreBackend) throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }

        // Migrations 8 (runs shared between processes) and 10 (faster value functions) are PostgreSQL's alone.
        let shared = backend is PostgresBackend ? [8, 10] : []
        note("migrations", try backend.applyMigrations(now: { clock }, afterApplying: { _ in }).map(\.id).filter { !shared.contains($0) })
        note("status", try backend.migrationStatus().map(\.id).filter { !shared.contains($0) })
        note("key", try backend.auditKeyBytes().count)
        note("head", String(describing: try backend.auditHead()))

        try backend.transaction(.write) {
            note("in transaction", backend.isInTransaction)
            // Names that sort differently by bytes and by a language's rules.
            for name in ["signup", "Zeta", "alpha", "_x", "Émile", "b-2", "b1"] {
                note("form \(name)", try backend.insertForm(named: name))
            }
            note("layout", try backend.insertLayout(encodedFields: [1, 2, 0, 255]))
            note("layout", try backend.insertLayout(encodedFields: []))
            note("import", try backend.insertImport(formID: 1, at: "2026-12-01T10:00:00.000Z", actor: "ann", source: "a.csv"))
            note("import", try backend.insertImport(formID: 3, at: "2026-12-01T11:00:00.000Z", actor: "bo", source: "-"))

            let zip = DefinitionVersion(id: 0, kind: .type, name: "zip", hash: String(repeating: "1", count: 64),
                                        source: "type zip", origin: "database", recordedAt: "2026-12-01T10:00:00.000Z",
                                        actor: "ann", secure: false)
            var zip2 = zip
            zip2.hash = String(repeating: "2", count: 64)
            zip2.secure = true
            var pin = zip
            pin.name = "pin"
            pin.hash = String(repeating: "3", count: 64)
            var form = zip
            form.kind = .form
            form.name = "signup"
            let zipID = try backend.insertVersion(zip)
            let zip2ID = try backend.insertVersion(zip2)
            let pinID = try backend.insertVersion(pin)
            let formID = try backend.insertVersion(form)
            note("versions", [zipID, zip2ID, pinID, formID])
            for (name, action, id) in [("zip", DefinitionEvent.Action.add, zipID), ("pin", .add, pinID),
                                       ("zip", .add, zip2ID), ("pin", .retire, nil)] {
                var version = zip
                version.id = id ?? 0
                note("event", try backend.insertEvent(.type, DefinitionEvent(
                    id: 0, name: name, action: action, version: id == nil ? nil : version,
                    at: "2026-12-01T12:00:00.000Z", actor: "ann")))
            }
            var formVersion = form
            formVersion.id = formID
            note("form event", try backend.insertEvent(.form, DefinitionEvent(
                id: 0, name: "signup", action: .add, version: formVersion, at: "2026-12-01T12:00:00.000Z", actor: "bo")))
            try backend.setSecure(typeVersionID: zipID, true)

            var prev = String(repeating: "0", count: 64)
            for (seq, actor, at) in [(Int64(1), "ann", "2026-12-01T10:00:00.000Z"), (2, "bo", "2026-12-02T10:00:00.000Z"),
                                     (3, "ann", "2026-12-03T10:00:00.000Z")] {
                let hash = AuditLog.hash(prevHash: prev, seq: seq, at: at, actor: actor, action: "types.add",
                                         subject: "zip", details: "{}")
                try backend.insertAuditRecord(AuditRecord(seq: seq, at: at, actor: actor, action: "types.add",
                                                          subject: "zip", details: "{}", prevHash: prev, hash: hash))
                prev = hash
            }
        }
        note("after commit", backend.isInTransaction)

        _ = try? backend.transaction(.write) { () throws -> Void in
            _ = try backend.insertForm(named: "rolled back")
            throw CancellationError()
        }
        note("rolled back", try backend.formID(named: "rolled back") as Any)
        // The id the rolled-back insert took is given again, as SQLite gives rowids.
        note("after rollback", try backend.transaction(.write) { try backend.insertForm(named: "again") })

        note("forms", try backend.formNames())
        note("form id", try backend.formID(named: "alpha") as Any)
        note("no form", try backend.formID(named: "nope") as Any)
        note("has entries", try backend.hasEntries(formID: 1))
        note("layout id", try backend.layoutID(encodedFields: [1, 2, 0, 255]) as Any)
        note("empty layout id", try backend.layoutID(encodedFields: []) as Any)
        note("layout", try backend.encodedLayout(id: 1) as Any)
        note("no layout", try backend.encodedLayout(id: 99) as Any)
        note("layouts", try backend.encodedLayouts().sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        note("imports", try backend.importHeaders().sorted { $0.key < $1.key }.map { "\($0.value)" })
        note("last import", try backend.lastImportID())

        for kind in [DefinitionKind.type, .form] {
            note("current \(kind)", try backend.currentVersions(kind))
            note("all \(kind)", try backend.allVersions(kind))
            note("events \(kind)", try backend.allEvents(kind))
            note("referenced \(kind)", try backend.referencedVersionIDs(kind))
        }
        note("current zip", try backend.currentVersion(.type, name: "zip") as Any)
        note("current pin (retired)", try backend.currentVersion(.type, name: "pin") as Any)
        note("current none", try backend.currentVersion(.type, name: "none") as Any)
        note("versions zip", try backend.versions(.type, name: "zip"))
        note("by hash", try backend.version(.type, name: "zip", hash: String(repeating: "2", count: 64)) as Any)
        note("by id", try backend.version(.type, id: 3) as Any)
        note("by missing id", try backend.version(.form, id: 3) as Any)
        note("events pin", try backend.events(.type, name: "pin"))
        note("event 4", try backend.event(.type, id: 4) as Any)

        note("head", String(describing: try backend.auditHead()))
        note("records", try backend.auditRecords(since: nil, actor: nil, limit: nil).map(\.seq))
        note("since", try backend.auditRecords(since: "2026-12-02", actor: nil, limit: nil).map(\.seq))
        note("by ann", try backend.auditRecords(since: nil, actor: "ann", limit: nil).map(\.seq))
        note("limit", try backend.auditRecords(since: nil, actor: nil, limit: 2).map(\.seq))
        var each: [AuditRecord] = []
        try backend.forEachAuditRecord { each.append($0) }
        note("each", each)
        note("last", try backend.lastAuditRecord() as Any)
        note("inspect", try backend.inspect { try backend.formNames().count })
        return lines
    }

    /// Entries written by two imports (new, keyed, replaced, unchanged) and read back every way.
    static func entriesTranscript(_ backend: some StoreBackend) throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        _ = try backend.applyMigrations(now: { clock }, afterApplying: { _ in })
        note("bounds before", try backend.entryIDBounds())
        try backend.transaction(.write) {
            let signup = try backend.insertForm(named: "signup")
            let other = try backend.insertForm(named: "other")
            let layout = try backend.insertLayout(encodedFields: [1, 0x61])
            let wide = try backend.insertLayout(encodedFields: [2, 0x61, 0x62])
            let first = try backend.insertImport(formID: signup, at: "2026-12-01T10:00:00.000Z", actor: "ann", source: "a.csv")
            let writer = try backend.makeEntryRowWriter(formID: signup, importID: first)
            // Source lines (0005) on keyed rows and on rows that travel by COPY on PostgreSQL.
            for (line, (key, values)) in [("k1", [UInt8]([0, 1])), ("k2", [2, 0xff]), ("", [3])].enumerated() {
                note("insert", try values.withUnsafeBytes {
                    try writer.insert(key: key.isEmpty ? nil : key, layoutID: layout, values: $0, line: Int64(line + 2))
                })
            }
            let otherImport = try backend.insertImport(formID: other, at: "2026-12-01T10:30:00.000Z", actor: "bo", source: "-")
            note("other", try [UInt8]([9]).withUnsafeBytes {
                try backend.makeEntryRowWriter(formID: other, importID: otherImport).insert(key: "k1", layoutID: layout, values: $0,
                                                                                              line: nil)
            })
            let second = try backend.insertImport(formID: signup, at: "2026-12-01T11:00:00.000Z", actor: "ann", source: "b.csv")
            let again = try backend.makeEntryRowWriter(formID: signup, importID: second)
            let same = try [UInt8]([0, 1]).withUnsafeBytes { try again.find(key: "k1", layoutID: layout, values: $0) }
            note("find same", String(describing: same))
            let changed = try [UInt8]([7, 7, 7]).withUnsafeBytes { try again.find(key: "k2", layoutID: wide, values: $0) }
            note("find changed", String(describing: changed))
            note("find none", String(describing: try [UInt8]().withUnsafeBytes { try again.find(key: "k9", layoutID: layout, values: $0) }))
            if let changed {
                try [UInt8]([7, 7, 7]).withUnsafeBytes { try again.replace(id: changed.id, layoutID: wide, values: $0, line: 5) }
                let third = try backend.insertImport(formID: signup, at: "2026-12-01T12:00:00.000Z", actor: "cy", source: "c.csv")
                try [UInt8]([8]).withUnsafeBytes {
                    try backend.makeEntryRowWriter(formID: signup, importID: third).replace(id: changed.id, layoutID: layout, values: $0,
                                                                                                  line: nil)
                }
            }
        }
        note("entry 2", try backend.entry(id: 2) as Any)
        note("entry 99", try backend.entry(id: 99) as Any)
        note("all", try backend.entries(form: nil, afterID: 0, limit: nil))
        note("signup after 1, 1", try backend.entries(form: "signup", afterID: 1, limit: 1))
        note("count", [try backend.entryCount(form: nil), try backend.entryCount(form: "signup"), try backend.entryCount(form: "none")])
        note("earlier", try backend.earlierVersions(entryID: 2))
        note("keys", try backend.entryKeys([1, 2, 3, 4, 99]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        note("keyed", [try backend.hasKeyedEntries(formID: 1), try backend.hasKeyedEntries(formID: 3)])
        note("bounds", try backend.entryIDBounds())
        var versions: [String] = []
        try backend.forEachEntryVersion { row, values in versions.append("\(row) \(Array(values))") }
        note("versions", versions)
        let scans = try backend.beginEntryScans(count: 3)
        var seen: [String] = []
        for (index, scan) in scans.enumerated() {
            try scan.forEachEntry(afterID: Int64(index), throughID: 3) { row in
                seen.append("\(index): \(row.id) \(row.formID) \(row.layoutID) v\(row.version) \(Array(row.values))")
            }
            scan.end()
        }
        note("scans", seen)
        note("long readers", try backend.withLongReaders { 5 })
        return lines
    }

    @Test(.needsPostgres) func entriesAnswerAsOnSQLite() throws {
        let folder = TemporaryDirectory()
        let sqlite = try Self.entriesTranscript(try SQLiteBackend(path: folder.path("entries.db")))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Self.entriesTranscript(try PostgresBackend(url: database.url))
        // The scenario did what it says: three scans read, entry 2 has two earlier versions.
        #expect(postgres.contains { $0.hasPrefix("scans: [\"0: 1 1 1 v1 [0, 1]\", \"0: 2 1 1 v3 [8]\"") })
        #expect(postgres.contains { $0.hasPrefix("earlier: [") && $0.contains("version: 2") })
        #expect(sqlite.count == postgres.count)
        for (s, p) in zip(sqlite, postgres) { #expect(p == s) }
    }

    /// Readers begun together see the same entries, also when an import commits between the
    /// first and the last (they share the first one's snapshot).
    @Test(.needsPostgres) func scansShareOneSnapshot() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let backend = try PostgresBackend(url: database.url)
        _ = try backend.applyMigrations(now: Date.init, afterApplying: { _ in })
        func importOne() throws {
            try backend.transaction(.write) {
                let form = try backend.formID(named: "f") ?? backend.insertForm(named: "f")
                let layout = try backend.layoutID(encodedFields: [0]) ?? backend.insertLayout(encodedFields: [0])
                let id = try backend.insertImport(formID: form, at: "", actor: "a", source: "-")
                _ = try [UInt8]([1]).withUnsafeBytes {
                    try backend.makeEntryRowWriter(formID: form, importID: id).insert(key: nil, layoutID: layout, values: $0, line: nil)
                }
            }
        }
        try importOne()
        let first = try PostgresEntryScan(url: database.url, snapshot: nil)
        let snapshot = try #require(try first.connection.scalarString("SELECT pg_export_snapshot()"))
        try importOne()
        let second = try PostgresEntryScan(url: database.url, snapshot: snapshot)
        let fresh = try PostgresEntryScan(url: database.url, snapshot: nil)
        func ids(_ scan: PostgresEntryScan) throws -> [Int64] {
            var ids: [Int64] = []
            try scan.forEachEntry(afterID: 0, throughID: .max) { ids.append($0.id) }
            return ids
        }
        #expect(try ids(first) == [1])
        #expect(try ids(second) == [1])
        #expect(try ids(fresh) == [1, 2])
        // A reader that stops on an error leaves its connection usable (the stream is drained).
        #expect(throws: CancellationError.self) {
            try fresh.forEachEntry(afterID: 0, throughID: .max) { _ in throw CancellationError() }
        }
        #expect(try ids(fresh) == [1, 2])
        var ranged: [Int64] = []
        try fresh.forEachEntry(afterID: 1, throughID: 2) { ranged.append($0.id) }
        #expect(ranged == [2])
    }

    /// A run over two forms: rules, results (one repeated), progress, its end; read back every way.
    static func runsTranscript(_ backend: some StoreBackend) throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        _ = try backend.applyMigrations(now: { clock }, afterApplying: { _ in })
        try backend.transaction(.write) {
            // Form names whose byte order and language order differ.
            let zeta = try backend.insertForm(named: "Zeta")
            let alpha = try backend.insertForm(named: "alpha")
            let hash = { (c: Character) in String(repeating: c, count: 64) }
            var form = DefinitionVersion(id: 0, kind: .form, name: "Zeta", hash: hash("a"), source: "form Zeta",
                                         origin: "database", recordedAt: "2026-12-01T00:00:00.000Z", actor: "ann")
            let zetaVersion = try backend.insertVersion(form)
            form.name = "alpha"
            form.hash = hash("b")
            let alphaVersion = try backend.insertVersion(form)
            var type = form
            type.kind = .type
            type.name = "zip"
            type.hash = hash("c")
            type.secure = true
            let zip = try backend.insertVersion(type)
            let process = RunProcess(host: "h", pid: 42, start: "s")
            let run = try backend.insertRun(RunRecord(
                id: 0, startedAt: "2026-12-01T10:00:00.000Z", endedAt: nil, actor: "ann", today: "2026-12-01",
                lastImport: 0, status: .running, recordedStatus: .running, error: nil, process: process,
                counts: RunCounts(), forms: []))
            note("run", run)
            try backend.insertRunForm(runID: run, formID: zeta, formVersionID: zetaVersion, lastID: 10)
            try backend.insertRunForm(runID: run, formID: alpha, formVersionID: alphaVersion, lastID: 10)
            for field in ["b", "Z", "a"] {
                try backend.insertRunFieldType(runID: run, formID: zeta, field: field, typeVersionID: zip)
            }
            note("running", try backend.runningRuns().map { "\($0.id) \($0.process)" })
            let writer = try backend.makeRunResultRowWriter(runID: run)
            let error = try writer.insertRule(RunRule(id: 0, formID: zeta, form: "Zeta", field: "b", type: "zip",
                                                      rule: "pattern", severity: .error, message: "not a zip"))
            let warning = try writer.insertRule(RunRule(id: 0, formID: alpha, form: "alpha", field: nil, type: nil,
                                                        rule: "compare", severity: .warning, message: "later"))
            note("rules", [error, warning])
            for (entry, rule) in [(Int64(3), error), (1, error), (3, warning), (3, error), (7, warning)] {
                try writer.addResult(entryID: entry, ruleID: rule, entryVersion: 2)
            }
            try writer.progress(formID: zeta, judgedThrough: 5,
                                counts: RunCounts(entriesChecked: 5, entriesInvalid: 2, entriesWarned: 0, errors: 2, warnings: 0))
            try writer.progress(formID: alpha, judgedThrough: 10,
                                counts: RunCounts(entriesChecked: 10, entriesInvalid: 0, entriesWarned: 2, errors: 0, warnings: 2))
            try backend.endRun(id: run, status: .incomplete, endedAt: "2026-12-01T10:05:00.000Z", error: "stopped")
            let second = try backend.insertRun(RunRecord(
                id: 0, startedAt: "2026-12-01T11:00:00.000Z", endedAt: nil, actor: "bo", today: "2026-12-01",
                lastImport: 0, status: .running, recordedStatus: .running, error: nil, process: process,
                counts: RunCounts(), forms: []))
            try backend.insertRunForm(runID: second, formID: alpha, formVersionID: alphaVersion, lastID: 10)
            try backend.endRun(id: second, status: .complete, endedAt: "2026-12-01T11:01:00.000Z", error: nil)
        }
        note("headers", try backend.runHeaders(form: nil, limit: nil))
        note("headers Zeta", try backend.runHeaders(form: "Zeta", limit: nil).map(\.id))
        note("headers 1", try backend.runHeaders(form: nil, limit: 1).map(\.id))
        note("header", try backend.runHeader(id: 1) as Any)
        note("no header", try backend.runHeader(id: 9) as Any)
        note("forms", try backend.runForms(runID: 1))
        note("ids", try backend.runIDs())
        note("previous", [try backend.previousRunID(before: 2, form: "alpha"), try backend.previousRunID(before: 1, form: "alpha")])
        note("judging", [try backend.runIDs(judging: 7, formID: 1), try backend.runIDs(judging: 7, formID: 2)])
        note("rules", try backend.rules(ofRun: 1, form: nil))
        note("rules alpha", try backend.rules(ofRun: 1, form: "alpha"))
        var rows: [String] = []
        try backend.forEachResultRow(ofRun: 1) { rows.append("\($0) v\($1) r\($2)") }
        note("result rows", rows)
        note("results 3", try backend.results(ofRun: 1, entryID: 3))
        note("invalid", try backend.invalidEntryIDs(ofRun: 1, formID: 1))
        note("field types", try backend.fieldTypes(ofRun: 1, formID: nil))
        note("field types 2", try backend.fieldTypes(ofRun: 1, formID: 2))
        note("field types Zeta", try backend.fieldTypes(ofForm: "Zeta"))
        note("running", try backend.runningRuns().map(\.id))
        return lines
    }

    /// Tokens of `formulary serve` through the store on both kinds: ids, rows, one working
    /// token per name, revocation and the audit actions read back alike.
    static func tokensTranscript(_ backend: some StoreBackend) throws -> [String] {
        let store = Store(backend: backend)
        store.clock = { Date(timeIntervalSince1970: 1_796_000_000) }
        try store.migrate()
        _ = try store.addToken(name: "web", scope: "read", hash: String(repeating: "a", count: 64), actor: "ann")
        _ = try store.addToken(name: "ci", scope: "admin", hash: String(repeating: "b", count: 64), actor: "bob")
        var lines: [String] = []
        do {
            _ = try store.addToken(name: "web", scope: "submit", hash: String(repeating: "c", count: 64), actor: "ann")
        } catch let error as TokenStoreError {
            lines.append("refused: \(error)")
        }
        try store.revokeToken(name: "web", actor: "ann")
        _ = try store.addToken(name: "web", scope: "submit", hash: String(repeating: "d", count: 64), actor: "ann")
        for t in try store.tokens() {
            lines.append("\(t.id) \(t.name) \(t.scope) \(t.hash.prefix(1)) \(t.createdBy) \(t.revokedAt ?? "-")")
        }
        lines.append("audit: " + (try store.auditRecords().map(\.action).filter { $0.hasPrefix("token.") }
            .joined(separator: ",")))
        return lines
    }

    @Test(.needsPostgres) func tokensAnswerAsOnSQLite() throws {
        let folder = TemporaryDirectory()
        let sqlite = try Self.tokensTranscript(try SQLiteBackend(path: folder.path("tokens.db")))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Self.tokensTranscript(try PostgresBackend(url: database.url))
        #expect(sqlite.count == 5 && sqlite[0].hasPrefix("refused: a token named 'web'"))
        #expect(sqlite.last == "audit: token.add,token.add,token.revoke,token.add")
        #expect(postgres == sqlite)
    }

    @Test(.needsPostgres) func runsAnswerAsOnSQLite() throws {
        let folder = TemporaryDirectory()
        let sqlite = try Self.runsTranscript(try SQLiteBackend(path: folder.path("runs.db")))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Self.runsTranscript(try PostgresBackend(url: database.url))
        #expect(postgres.contains { $0.hasPrefix("result rows: [\"1 v2 r1\", \"3 v2 r1\", \"3 v2 r2\", \"7 v2 r2\"]") })
        #expect(sqlite.count == postgres.count)
        for (s, p) in zip(sqlite, postgres) { #expect(p == s) }
    }

    @Test(.needsPostgres) func theDoneGroupsAnswerAsSQLiteDoes() throws {
        let folder = TemporaryDirectory()
        let sqlite = try Self.transcript(try SQLiteBackend(path: folder.path("parity.db")))
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let postgres = try Self.transcript(try PostgresBackend(url: database.url))
        #expect(sqlite.count == postgres.count)
        for (s, p) in zip(sqlite, postgres) { #expect(p == s) }
    }

    @Test(.needsPostgres) func aReadTransactionRefusesWritesAndInspectLeavesNothing() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let backend = try PostgresBackend(url: database.url)
        _ = try backend.applyMigrations(now: Date.init, afterApplying: { _ in })
        let error = #expect(throws: PostgresError.self) {
            try backend.transaction(.read) { _ = try backend.insertForm(named: "x") }
        }
        #expect(error?.sqlState == "25006")
        #expect(!backend.isInTransaction)
        #expect(throws: PostgresError.self) { try backend.inspect { _ = try backend.insertForm(named: "x") } }
        #expect(!backend.isInTransaction)
        #expect(try backend.formNames().isEmpty)
    }

    /// Two writers: the second waits for the first's commit (the writers' advisory lock), so
    /// it reads the head the first left and appends after it, as on SQLite. Without the lock
    /// both read head 0 and the second append is refused.
    @Test(.needsPostgres) func writeTransactionsRunOneAtATime() throws {
        let database = try PostgresTestDatabase()
        defer { withExtendedLifetime(database) {} }
        let url = database.url
        let first = try PostgresBackend(url: url)
        _ = try first.applyMigrations(now: Date.init, afterApplying: { _ in })
        let observer = try PostgresConnection(url: url)

        @Sendable func append(_ backend: PostgresBackend, actor: String) throws {
            guard let (seq, prev) = try backend.auditHead() else { throw StoreError.corrupt("no head") }
            let at = "2026-12-01T10:00:00.000Z"
            try backend.insertAuditRecord(AuditRecord(
                seq: seq + 1, at: at, actor: actor, action: "a", subject: "s", details: "{}", prevHash: prev,
                hash: AuditLog.hash(prevHash: prev, seq: seq + 1, at: at, actor: actor, action: "a", subject: "s", details: "{}")))
        }

        let secondResult = Mutex<Result<Void, any Error>?>(nil)
        let secondDone = DispatchSemaphore(value: 0)
        try first.transaction(.write) {
            try append(first, actor: "first")
            let thread = Thread {
                defer { secondDone.signal() }
                let outcome = Result<Void, any Error> {
                    let second = try PostgresBackend(url: url)
                    try second.transaction(.write) { try append(second, actor: "second") }
                }
                secondResult.withLock { $0 = outcome }
            }
            thread.start()
            // Until the second writer is seen waiting for the advisory lock (bounded).
            var waiting = false
            for _ in 0..<500 where !waiting {
                waiting = try observer.scalarInt64("""
                    SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND database =
                    (SELECT oid FROM pg_database WHERE datname = current_database())
                    """) == 1
                if !waiting { usleep(10_000) }
            }
            #expect(waiting, "the second writer never waited for the first")
        }
        secondDone.wait()
        let outcome = try #require(secondResult.withLock { $0 })
        if case .failure(let error) = outcome { Issue.record("the second writer failed: \(error)") }
        #expect(try first.auditRecords(since: nil, actor: nil, limit: nil).map(\.actor) == ["first", "second"])
    }
}
