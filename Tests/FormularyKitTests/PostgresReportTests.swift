import Foundation
import Testing
import FormularyRules
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// Reports on PostgreSQL against SQLite: the same imports (keyed and unkeyed, with source
/// lines, a key that is a secure value, an undeclared field) and runs (full, then with
/// fixed, broken and new entries, then carried forward) give the same report in every
/// format and grouping, with and without the registry that knows the form (without it,
/// every value is secret), and the store's report queries answer alike. Needs
/// `FORMULARY_TEST_POSTGRES_URL` (see docs/scale-out.md, "The test server").
struct PostgresReportTests {
    static let badEmail = "not an email"

    /// The history; returns the runs.
    static func history(_ db: ReportDatabase) throws -> [FormularyStore.RunRecord] {
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let counter = Counter()
        db.store.clock = { base.addingTimeInterval(Double(counter.next())) }
        let (good, bad) = (ReportDatabase.goodCard, ReportDatabase.badCard)
        try put(db, "a-1", ["Ada", "ada@example.com", good, "123"], line: 2)
        try put(db, "a-2", ["Bob", "bob@example.com", bad, "123"], line: 3)
        try put(db, ReportDatabase.secretKey, ["Cy", badEmail, bad, ReportDatabase.secretKey], line: 4)
        try put(db, "a-4", ["Di", "di@example.com", good, "123"], line: 5)
        try add(db, [["Eve", badEmail, bad, "12"], [nil, "x@example.com", nil, nil]], firstLine: 6)
        var runs = [try db.validate()]
        try put(db, "a-2", ["Bob", "bob@example.com", good, "123"], line: 7)
        try put(db, "a-4", ["Di", "di@example.com", bad, "123"], line: 8)
        try put(db, "a-5", ["Ed", "ed@example.com", "4111", "123", "ed"], columns: ReportDatabase.columns + ["nickname"],
                   line: 9)
        try add(db, [["Fay", badEmail, good, "1"]], firstLine: 10)
        runs.append(try db.validate())
        runs.append(try db.validate())
        return runs
    }

    /// A keyed import with its audit record (so that `audit verify` passes).
    static func put(_ db: ReportDatabase, _ key: String, _ values: [String?],
                    columns: [String] = ReportDatabase.columns, line: Int) throws {
        try db.store.transaction {
            let writer = try db.store.entryWriter(form: "shop", actor: "tester", source: "test.csv")
            _ = try writer.upsert(key: key, layoutID: writer.layoutID(for: columns), values: values, line: line)
            _ = try writer.recordAudit()
        }
    }

    /// Unkeyed entries (on PostgreSQL they travel by COPY), one line each from `firstLine`.
    static func add(_ db: ReportDatabase, _ rows: [[String?]], firstLine: Int) throws {
        try db.store.transaction {
            let writer = try db.store.entryWriter(form: "shop", actor: "tester", source: "bulk.csv")
            let layout = try writer.layoutID(for: ReportDatabase.columns)
            for (i, row) in rows.enumerated() { try writer.add(layoutID: layout, values: row, line: firstLine + i) }
            _ = try writer.recordAudit()
        }
    }

    /// Every report of every run, in every format and grouping, and the store's queries.
    static func transcript(_ db: ReportDatabase, _ runs: [FormularyStore.RunRecord]) throws -> [String] {
        var lines: [String] = []
        for run in runs {
            for registry in [true, false] {
                let secure = registry ? SecureFields(store: db.store, registry: db.registry) : nil
                let report = try RunReport.load(run: run.id, from: db.store, secureFields: secure)
                for grouping in ReportGrouping.allCases {
                    let label = "run \(run.id) registry \(registry) by \(grouping)"
                    lines.append("\(label) json \(String(decoding: report.json(by: grouping), as: UTF8.self))")
                    lines.append("\(label) text \(report.text(by: grouping))")
                    lines.append("\(label) csv \(report.csv(by: grouping))")
                    lines.append("\(label) html \(report.html(by: grouping))")
                }
            }
            let formID = try #require(run.forms.first?.formID)
            let secrets = ReportSecrets(byForm: [formID: ["cvv"]], mask: "#")
            for key in ReportGroupKey.allCases {
                lines.append("top \(key) \(try db.store.reportTopValues(runID: run.id, formID: nil, multiForm: true, secrets: secrets, by: key, limit: 1))")
                lines.append("counts \(key) \(try db.store.reportGroupCounts(runID: run.id, formID: formID, multiForm: false, by: key).sorted { $0.key < $1.key })")
                var groups: [String] = []
                try db.store.forEachReportGroup(runID: run.id, formID: nil, multiForm: true, secrets: secrets, by: key) {
                    groups.append("\($0)")
                    return groups.count < 3
                }
                lines.append("groups \(key) \(groups)")
            }
            if let previous = runs.last(where: { $0.id < run.id }) {
                for newly in [true, false] {
                    var entries: [String] = []
                    let total = try db.store.forEachComparedEntry(
                        runID: run.id, previousRunID: previous.id, formID: formID, newly: newly,
                        previousJudgedThrough: previous.forms[0].judgedThrough, judgedThrough: run.forms[0].judgedThrough,
                        secrets: secrets, limit: 1) { entries.append("\($0)") }
                    lines.append("compared newly \(newly) \(total) \(entries)")
                }
            }
        }
        lines.append("failing \(try db.store.failingEntryIDs()) \(try db.store.failingEntryIDs(includeWarningsOnly: true))")
        var versions: [String] = []
        for entry in try db.store.entries() {
            versions.append("\(entry.id) v\(entry.version) \(try db.store.entryHistory(id: entry.id).count)")
        }
        lines.append("entries \(versions)")
        let verification = try db.store.auditReport()
        lines.append("verify \(verification.isValid) \(verification.problems.map(\.message))")
        return lines
    }

    @Test(.needsPostgresServer) func reportsOnPostgreSQLMatchSQLite() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let sqliteDB = try ReportDatabase()
        let sqlite = try Self.transcript(sqliteDB, try Self.history(sqliteDB))
        let url = database.url
        let postgresDB = try ReportDatabase(makeStore: { _ in Store(backend: try PostgresBackend(url: url)) })
        let runs = try Self.history(postgresDB)
        let postgres = try Self.transcript(postgresDB, runs)

        let difference = zip(postgres, sqlite).first { $0 != $1 }
        #expect(difference == nil, "first difference:\n  postgres \(difference?.0 ?? "")\n  sqlite   \(difference?.1 ?? "")")
        #expect(postgres.count == sqlite.count)

        // The scenario shows what it should: sources, a masked secure value, a masked key.
        let report = try RunReport.load(run: runs[1].id, from: postgresDB.store,
                                        secureFields: SecureFields(store: postgresDB.store, registry: postgresDB.registry))
        #expect(report.failures.contains { $0.source == "test.csv:8" && $0.value == ReportDatabase.badCard })
        #expect(report.failures.contains { $0.source == "bulk.csv:10" && $0.value == Self.badEmail })
        #expect(report.failures.contains { $0.field == "cvv" && $0.value == RunReport.secureMask })
        let text = postgres.joined(separator: "\n")
        #expect(!text.contains("\"\(ReportDatabase.secretKey)\""), "the key that is a secure value is masked")
        #expect(runs[2].entriesCarried == runs[2].counts.entriesChecked)
        #expect(postgres.last == "verify true []")

        // A source line changed behind the store's back: the import's digest no longer matches.
        let admin = try PostgresConnection(url: url)
        try admin.execute("UPDATE entries SET source_line = source_line + 1 WHERE source_line = 10")
        #expect(try !postgresDB.store.auditReport().isValid)
    }
}
