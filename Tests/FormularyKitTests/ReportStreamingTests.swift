import Testing
@testable import FormularyStore
@testable import FormularyPostgres
@testable import FormularyKit

/// A loaded report writes what it knows before the database's passes over the failures: the
/// run's facts reach the reader before the first failure is read, whatever the format, and
/// what each pass gives goes out before the next pass starts, so that the first line of a
/// report of 300,000 failures is not held back until every pass is made. Checked by order
/// of events (output handed on, passes announced, rows read), never by time, on SQLite and
/// on PostgreSQL.
@Suite struct ReportStreamingTests {
    /// What happened while a report was rendered, in order.
    enum Event: Equatable {
        /// The sink handed these bytes on.
        case output(String)
        /// The database began a pass over the failures.
        case pass(ReportProgress)
        /// A group, failure or compared entry was read.
        case row
    }

    final class Log {
        var events: [Event] = []
    }

    /// The rows of a loaded report, each read recorded.
    final class RecordingRows: RunReportRows {
        let rows: any RunReportRows
        let log: Log

        init(_ rows: any RunReportRows, _ log: Log) {
            self.rows = rows
            self.log = log
        }

        func forEachGroup(by grouping: ReportGrouping, _ body: (ReportGroup) throws -> Bool) throws {
            try rows.forEachGroup(by: grouping) { log.events.append(.row); return try body($0) }
        }

        func forEachFailure(groupedBy: ReportGrouping?, _ body: (RunReport.Failure) throws -> Bool) throws {
            try rows.forEachFailure(groupedBy: groupedBy) { log.events.append(.row); return try body($0) }
        }

        func forEachComparedEntry(form: String, newly: Bool,
                                  _ body: (RunReport.Comparison.NewlyFailing) throws -> Void) throws {
            try rows.forEachComparedEntry(form: form, newly: newly) { log.events.append(.row); try body($0) }
        }
    }

    enum Format: CaseIterable { case text, json, csv, html }

    /// Renders run `run`'s report as ``ReportService`` does (flushed before each pass), into
    /// a sink whose chunks are far larger than the report: whatever it hands on before the
    /// end, it hands on because a pass was about to start. Records, at each pass, whether
    /// the sink still held back anything written.
    static func events(_ db: ReportDatabase, run: Int64, _ format: Format, by grouping: ReportGrouping,
                       heldBack: ((ReportProgress, Int) -> Void)? = nil) throws -> [Event] {
        let log = Log()
        let sink = ReportSink(chunk: 1 << 24) { log.events.append(.output(String(decoding: $0, as: UTF8.self))) }
        try db.store.read {
            var report = try RunReport.load(run: run, from: db.store,
                                            secureFields: SecureFields(store: db.store, registry: db.registry),
                                            summary: format != .csv, progress: { pass in
                                                log.events.append(.pass(pass))
                                                heldBack?(pass, sink.buffered)
                                            }, flush: sink.flush)
            report.rows = RecordingRows(report.rows, log)
            switch format {
            case .text: try report.renderText(by: grouping, to: sink)
            case .json: try report.renderJSON(by: grouping, to: sink)
            case .csv: try report.renderCSV(by: grouping, to: sink)
            case .html: try report.renderHTML(by: grouping, to: sink)
            }
            try sink.flush()
        }
        return log.events
    }

    /// The report's first words in each format, known from the run's record alone.
    static func opening(_ format: Format, run: Int64) -> String {
        switch format {
        case .text: "Run \(run)  complete"
        case .json: "{\"run\":{\"id\":\(run),"
        case .csv: "run,form,entry_id,"
        case .html: "<!DOCTYPE html>"
        }
    }

    /// Every format and grouping of the second of two runs (compared with the first).
    static func checkFirstOutputComesBeforeAnyRow(_ db: ReportDatabase) throws {
        try db.validate()
        let second = try Self.secondRun(db)
        for format in Format.allCases {
            for grouping in ReportGrouping.allCases {
                let label = "\(format) by \(grouping)"
                let events = try Self.events(db, run: second.id, format, by: grouping) { pass, buffered in
                    #expect(buffered == 0, "\(label): \(buffered) bytes held back as \(pass) starts")
                }
                guard case .output(let first) = events.first else {
                    Issue.record("\(label): began with \(String(describing: events.first)), not output")
                    continue
                }
                #expect(first.hasPrefix(Self.opening(format, run: second.id)), "\(label): \(first)")
                #expect(events.contains(.row), "\(label): the report reads rows")
                #expect(events.contains(.pass(.writing(run: second.id))), "\(label): \(events)")
            }
        }
    }

    /// Entries broken and fixed after the first run, then a second run.
    static func secondRun(_ db: ReportDatabase) throws -> FormularyStore.RunRecord {
        try db.put("a-2", ["Bob", "bob@example.com", ReportDatabase.goodCard, "123"])
        try db.put("a-4", ["Di", "di@example.com", ReportDatabase.badCard, "123"])
        return try db.validate()
    }

    /// Entries for a first run: two fail, one of them keyed by its own (secure) cvv.
    static func filled(_ db: ReportDatabase) throws -> ReportDatabase {
        try db.put("a-1", ["Ada", "ada@example.com", ReportDatabase.goodCard, "123"])
        try db.put("a-2", ["Bob", "bob@example.com", ReportDatabase.badCard, "123"])
        try db.put(ReportDatabase.secretKey, ["Cy", "not an email", ReportDatabase.badCard, ReportDatabase.secretKey])
        try db.put("a-4", ["Di", "di@example.com", ReportDatabase.goodCard, "123"])
        return db
    }

    @Test func theFactsAreWrittenBeforeTheFirstRowIsRead() throws {
        try Self.checkFirstOutputComesBeforeAnyRow(Self.filled(ReportDatabase()))
    }

    @Test(.needsPostgresServer) func theFactsAreWrittenBeforeTheFirstRowIsReadOnPostgreSQL() throws {
        let database = try ScratchPostgresDatabase()
        defer { withExtendedLifetime(database) {} }
        let url = database.url
        try Self.checkFirstOutputComesBeforeAnyRow(
            Self.filled(ReportDatabase(makeStore: { _ in Store(backend: try PostgresBackend(url: url)) })))
    }

    /// The text report: the facts, then the group table before the most frequent values are
    /// counted, and those before the comparison: each part goes out as soon as it is made.
    @Test func theTextReportGoesOutPartByPart() throws {
        let db = try Self.filled(ReportDatabase())
        let first = try db.validate()
        let events = try Self.events(db, run: first.id, .text, by: .rule)
        let outputs = events.compactMap { if case .output(let text) = $0 { text } else { nil } }
        let counting = try #require(events.firstIndex(of: .pass(.countingValues(run: first.id))))
        let comparing = try #require(events.firstIndex(of: .pass(.comparing(run: first.id, form: "shop", previousRun: nil))))
        let table = try #require(events.firstIndex { if case .output(let text) = $0 { text.contains("RULE") } else { false } })
        let values = try #require(events.firstIndex { if case .output(let text) = $0 { text.contains("Most frequent") } else { false } })
        #expect(table < counting && counting < values && values < comparing, "\(events)")
        let whole = try RunReport.load(run: first.id, from: db.store,
                                       secureFields: SecureFields(store: db.store, registry: db.registry)).text(by: .rule)
        #expect(outputs.joined() == whole, "streamed, the report is the same")
    }

    /// Groups by rule, field or type are few: the database groups them once, though the
    /// text table reads them twice (widths, then rows). Groups by entry, which may be
    /// hundreds of thousands, are read from the database each time.
    @Test func fewGroupsAreCountedOnce() throws {
        let db = try Self.filled(ReportDatabase())
        let run = try db.validate()
        for grouping in ReportGrouping.allCases {
            let events = try Self.events(db, run: run.id, .text, by: grouping)
            let passes = events.filter { $0 == .pass(.writing(run: run.id)) }.count
            #expect(passes == (grouping == .entry ? 2 : 1), "by \(grouping): \(events)")
        }
    }
}
