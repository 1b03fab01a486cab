import FormularyKit
import FormularyJSON

/// The endpoints that read validation runs, their reports and the audit log: the same
/// services and renderers as `runs list`, `report` and `audit`, so the answers are the
/// commands' output byte for byte.
extension RegistryAPI {
    /// A workspace on the server's settings, for one request.
    var workspace: Workspace { Workspace(settings: settings) }

    /// `GET /v1/runs`: what `runs list --format json` prints (every run, newest first).
    func runs() throws -> HTTPResponse {
        guard workspace.databaseExists else { return .json(200, Array("[]\n".utf8)) }
        return .json(200, try RunsService(workspace: workspace).list(form: nil, limit: 0).jsonDocument)
    }

    /// `GET /v1/runs/ID/report?by=rule|field|type|entry&format=json|csv|html`: what
    /// `report --run ID --by BY --format FORMAT` prints (json and rule by default).
    func report(run text: String, _ request: HTTPRequest) throws -> HTTPResponse {
        guard let id = Int64(text), id > 0, text.allSatisfy(\.isASCII) else {
            throw APIError(404, "not_found", "There is no run '\(text)'; run ids are whole numbers (GET /v1/runs lists them).")
        }
        let grouping: ReportGrouping
        if let by = request.query["by"] {
            guard let chosen = ReportGrouping(rawValue: by) else {
                throw APIError.badRequest("'by' must be rule, field, type or entry.")
            }
            grouping = chosen
        } else {
            grouping = .rule
        }
        let format: ReportService.Format
        let contentType: String
        switch request.query["format"] ?? "json" {
        case "json": (format, contentType) = (.json, "application/json; charset=utf-8")
        case "csv": (format, contentType) = (.csv, "text/csv; charset=utf-8")
        case "html": (format, contentType) = (.html, "text/html; charset=utf-8")
        default: throw APIError.badRequest("'format' must be json, csv or html.")
        }
        // Looked up first: rendering loads the registry (to know the secure fields), too
        // much work to spend on a run that is not there.
        let reports = ReportService(workspace: workspace)
        guard try reports.runExists(id) else { throw Self.noRun(id) }
        var bytes: [UInt8] = []
        do {
            _ = try reports.renderOrFail(
                run: id, form: nil, by: grouping, format: format,
                to: ReportSink { bytes.append(contentsOf: $0) })
        } catch RunReportError.noSuchRun {
            throw Self.noRun(id)
        }
        var response = HTTPResponse(status: 200, headers: [("Content-Type", contentType)], body: bytes)
        if case .html = format { response.headers.append(("Content-Security-Policy", Self.reportPolicy)) }
        return response
    }

    /// The HTML report opened on its own: its `<style>` and inline SVG charts, nothing else —
    /// no script, no request anywhere, no form, not framed by another page; `sandbox` gives
    /// it an origin of its own, so even markup that slipped into it reaches nothing of the
    /// server's. (The web page shows it in a sandboxed frame made from its text, where the
    /// page's own policy holds.)
    static let reportPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'; sandbox"

    private static func noRun(_ id: Int64) -> APIError {
        APIError(404, "not_found", "There is no run \(id); GET /v1/runs lists them.")
    }

    /// `GET /v1/audit?since=DATE&limit=N`: what `audit --since DATE --format json` prints,
    /// the first `limit` records of it when given.
    func audit(_ request: HTTPRequest) throws -> HTTPResponse {
        var since: String?
        if let text = request.query["since"], !text.isEmpty {
            do {
                since = try DateArgument.utcTime(text)
            } catch {
                throw APIError.badRequest("'since' must be a date YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MM[:SS[.mmm]][Z].")
            }
        }
        var limit: Int?
        if let text = request.query["limit"] {
            guard let n = Int(text), n >= 0, text.allSatisfy(\.isASCII) else {
                throw APIError.badRequest("'limit' must be a whole number, 0 or more.")
            }
            limit = n
        }
        guard workspace.databaseExists else { return .json(200, Array("[]\n".utf8)) }
        return .json(200, try AuditService(workspace: workspace).records(since: since, actor: nil, limit: limit).jsonDocument)
    }
}
