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
    /// - Throws: a ``ServiceError`` (bad input) when there is no such run, or no run yet.
    public func load(run runID: Int64?, form: String?) throws -> RunReport {
        let store = try workspace.store(.read)
        do {
            return try RunReport.load(run: runID, form: form, from: store,
                                      secureFields: try workspace.secureFields(store: store))
        } catch let error as RunReportError {
            throw ServiceError(.badInput, error.description)
        }
    }
}
