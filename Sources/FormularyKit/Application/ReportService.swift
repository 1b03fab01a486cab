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

extension ReportService {
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
