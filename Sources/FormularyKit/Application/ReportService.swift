import FormularyStore

/// The failures of a validation run (`report`), grouped and compared with the run before.
public struct ReportService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// The report of run `runID` (the newest when nil), narrowed to `form` (and, without
    /// `runID`, that form's newest run), secure values masked.
    ///
    /// - Throws: a ``ServiceError`` (not found) when there is no such run, or no run yet.
    package func load(run runID: Int64?, form: String?) throws -> RunReport {
        let store = try workspace.store(.read)
        do {
            return try RunReport.load(run: runID, form: form, from: store,
                                      secureFields: try workspace.secureFields(store: store))
        } catch let error as RunReportError {
            throw ServiceError(.notFound, error.description)
        }
    }
}

extension ReportService {
    /// The formats a report is rendered in.
    public enum Format: Sendable {
        case text(colour: Bool), json, csv, html
    }

    /// Renders the report of run `runID` (the newest when nil), narrowed to `form`, into
    /// `sink` as its rows come from the database, in one read transaction: memory does not
    /// grow with the number of failures. The sink is flushed before each pass the database
    /// makes over the failures, so that what is known (the run's facts first) reaches the
    /// reader at once. Returns the run's id. `progress` hears each pass as it starts.
    ///
    /// - Throws: a ``ServiceError`` (not found) when there is no such run, or no run yet.
    @discardableResult
    public func render(run runID: Int64?, form: String?, by grouping: ReportGrouping, format: Format,
                       to sink: ReportSink, progress: ((ReportProgress) -> Void)? = nil) throws -> Int64 {
        do {
            return try renderOrFail(run: runID, form: form, by: grouping, format: format, to: sink, progress: progress)
        } catch let error as RunReportError {
            throw ServiceError(.notFound, error.description)
        }
    }

    /// Whether run `id` is recorded: cheaper than a report, which loads the registry too.
    package func runExists(_ id: Int64) throws -> Bool {
        guard workspace.databaseExists else { return false }
        return try workspace.store(.read).run(id: id) != nil
    }

    /// ``render(run:form:by:format:to:)`` that throws a ``RunReportError`` as it is, so
    /// that the server can answer 404 for a run that is not there.
    package func renderOrFail(run runID: Int64?, form: String?, by grouping: ReportGrouping, format: Format,
                      to sink: ReportSink, progress: ((ReportProgress) -> Void)? = nil) throws -> Int64 {
        let store = try workspace.store(.read)
        do {
            return try store.read {
                var csv = false
                if case .csv = format { csv = true }
                // Before each pass over the failures, what is written goes out: the first lines
                // are not held back until the database has counted everything.
                let report = try RunReport.load(run: runID, form: form, from: store,
                                                secureFields: try workspace.secureFields(store: store), summary: !csv,
                                                progress: progress, flush: sink.flush)
                switch format {
                case .text(let colour): try report.renderText(by: grouping, colour: colour, to: sink)
                case .json: try report.renderJSON(by: grouping, to: sink)
                case .csv: try report.renderCSV(by: grouping, to: sink)
                case .html: try report.renderHTML(by: grouping, to: sink)
                }
                try sink.flush()
                return report.facts.runID
            }
        }
    }

    /// The id of the run a report of (`runID`, `form`) shows, without rendering it.
    public func runID(run runID: Int64?, form: String?) throws -> Int64 {
        if let runID { return runID }
        let store = try workspace.store(.read)
        let run = try form.map { try store.latestRun(form: $0) } ?? store.latestRun()
        guard let run else {
            throw ServiceError(.badInput, (form.map { RunReportError.noRunOfForm($0) } ?? .noRuns).description)
        }
        return run.id
    }

    /// Renders a report into the file at `path`, whole or not at all (a temporary file
    /// beside it, renamed over it when complete). Returns the run's id.
    @discardableResult
    public func save(run runID: Int64?, form: String?, by grouping: ReportGrouping, format: Format,
                     to path: String, chosen: Bool, progress: ((ReportProgress) -> Void)? = nil) throws -> Int64 {
        var id: Int64 = 0
        do {
            try OutputFile.write(to: path) { deliver in
                try withoutActuallyEscaping(deliver) { deliver in
                    id = try render(run: runID, form: form, by: grouping, format: format, to: ReportSink(deliver: deliver),
                                    progress: progress)
                }
            }
        } catch let error as OutputFileError {
            throw ServiceError(error.isBadPath ? .badInput : .environment,
                               "cannot write the report to \(path): \(error.reason); nothing was written there. "
                               + error.advice.prefix(1).uppercased() + error.advice.dropFirst()
                               + (chosen ? "" : " (or choose the file with --output PATH)"))
        }
        return id
    }

    /// Writes a rendered report to `path`, whole or not at all.
    ///
    /// - Parameter chosen: whether the user named the file (`--output`); when not, the
    ///   advice says how to choose another.
    /// - Throws: a ``ServiceError`` saying why nothing was written there: bad input for a
    ///   path that cannot be a file, an environment failure for a full or failing disk.
    public static func save(_ bytes: [UInt8], to path: String, chosen: Bool) throws {
        do {
            try ReportFile.write(bytes, to: path)
        } catch {
            throw ServiceError(error.isBadPath ? .badInput : .environment,
                               "cannot write the report to \(path): \(error.reason); nothing was written there. "
                               + error.advice.prefix(1).uppercased() + error.advice.dropFirst()
                               + (chosen ? "" : " (or choose the file with --output PATH)"))
        }
    }
}
