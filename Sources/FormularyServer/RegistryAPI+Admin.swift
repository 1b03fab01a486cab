import FormularyKit
import FormularyJSON
import FormularyRules

/// The endpoints that change the registry (scope `admin`): a `.field` or `.form` file as
/// the body, admitted exactly as `types add` and `forms add` admit a file.
extension RegistryAPI {
    /// `POST /v1/types` and `POST /v1/forms`: the body (`Content-Type: text/plain`) is one
    /// plugin file, linted and (for a type) self-tested, then stored as a new version,
    /// audited with the token's name as the actor → 201 `{"kind", "name", "version",
    /// "status": "added"|"unchanged", "previous", "warnings": [diagnostic…]}` (200 with
    /// `unchanged` when that definition is already current). Problems → 422 with the
    /// diagnostics and failing self-tests in the error object.
    func add(_ kind: DefinitionKind, _ request: HTTPRequest, actor: String) throws -> HTTPResponse {
        guard !request.body.isEmpty else {
            throw APIError.badRequest("Send the \(kind == .type ? ".field" : ".form") file's text as the body.")
        }
        var acting = settings
        acting.actor = actor
        let service = RegistryService(workspace: Workspace(settings: acting))
        let file = Self.requestFile(kind, request)
        let allowBreaking = try Self.breakingReason(request)
        var warnings: [Diagnostic] = []
        let collect: RegistryService.WarningSink = { details in
            if case .digest(let named, _) = details { warnings += named.flatMap(\.diagnostics) }
            if case .diagnostics(let list, _) = details { warnings += list }
        }
        let admission: RegistryService.Admission
        do {
            admission = kind == .type
                ? try service.addTypes(pluginFiles: [file], today: today(), allowBreaking: allowBreaking, warnings: collect)
                : try service.addForms(pluginFiles: [file], addTypes: false, today: today(), warnings: collect)
        } catch let error as ServiceError where error.kind == .badInput {
            throw APIRejection(message: error.message, details: error.details)
        } catch let error as ServiceError where error.kind == .conflict && kind == .type {
            throw APIRejection(message: error.message, details: error.details, status: 409, code: "incompatible")
        }
        guard let outcome = (kind == .type ? admission.types : admission.forms).first else {
            throw APIError.badRequest("The body declares no \(kind == .type ? "field type" : "form").")
        }
        var writer = JSONWriter()
        writer.object { o in
            o.field("kind", kind.rawValue)
            o.field("name", outcome.version.name)
            o.field("version", outcome.version.hash)
            switch outcome {
            case .unchanged:
                o.field("status", "unchanged")
                o.nullField("previous")
            case .added(_, _, let previous):
                o.field("status", "added")
                if let previous { o.field("previous", previous.hash) } else { o.nullField("previous") }
            }
            o.array("warnings") { a in for d in warnings { a.object { d.writeFields(to: &$0) } } }
        }
        writer.newline()
        return .json(outcome.changedDatabase ? 201 : 200, writer.bytes)
    }
}

extension RegistryAPI {
    /// The body of an admin request as a plugin file: a name diagnostics show, not a file on
    /// the server (`--plugins` folders are not touched; the registry takes it as the
    /// highest-precedence file).
    static func requestFile(_ kind: DefinitionKind, _ request: HTTPRequest) -> PluginFile {
        PluginFile(path: kind == .type ? "request.field" : "request.form", bytes: request.body,
                   source: .folder(PluginFolder(path: "", origin: .option)))
    }

    /// `?allow_breaking=true&reason=TEXT`, as `types add --allow-breaking --reason TEXT`.
    static func breakingReason(_ request: HTTPRequest) throws -> String? {
        switch (request.query["allow_breaking"], request.query["reason"]) {
        case (nil, nil): return nil
        case ("true", let reason?) where !reason.allSatisfy(\.isWhitespace): return reason
        case ("true", _): throw APIError.badRequest("allow_breaking=true needs reason=TEXT: say why the breaking change is meant.")
        case (nil, _?): throw APIError.badRequest("reason goes with allow_breaking=true; a compatible version needs no reason.")
        case (let other?, _): throw APIError.badRequest("allow_breaking takes 'true', not '\(other)'.")
        }
    }

    /// `POST /v1/types/NAME/compatibility`: the body (`text/plain`) is a proposed version of
    /// type NAME, checked as `POST /v1/types` checks it; answers 200 with how it weighs
    /// against NAME's current version and its compatibility policy (``CompatibilityCheck``),
    /// storing nothing. A body that declares another type → 400; problems → 422.
    func compatibility(of name: String, _ request: HTTPRequest) throws -> HTTPResponse {
        guard !request.body.isEmpty else { throw APIError.badRequest("Send the proposed .field file's text as the body.") }
        let service = RegistryService(workspace: Workspace(settings: settings))
        let checks: [CompatibilityCheck]
        do {
            checks = try service.compatibility(pluginFiles: [Self.requestFile(.type, request)], today: today(),
                                               warnings: { _ in })
        } catch let error as ServiceError where error.kind == .badInput {
            throw APIRejection(message: error.message, details: error.details)
        }
        guard let check = checks.first else { throw APIError.badRequest("The body declares no field type.") }
        guard check.type == name else {
            throw APIError.badRequest("The body declares the type '\(check.type)', not '\(name)'; "
                                      + "send it to /v1/types/\(check.type)/compatibility.")
        }
        var writer = JSONWriter()
        check.writeJSON(to: &writer)
        writer.newline()
        return .json(200, writer.bytes)
    }
}

/// A definition refused by the admission: 422 with its diagnostics (409 `incompatible` for
/// a type version that breaks its compatibility policy).
struct APIRejection: Error {
    var message: String
    var details: ServiceError.Details
    var status = 422
    var code = "unprocessable"

    /// `{"error": {"code": "unprocessable", "message", "diagnostics": [diagnostic…],
    /// "failures": [text…]}}`.
    var response: HTTPResponse {
        var diagnostics: [Diagnostic] = []
        var failures: [String] = []
        switch details {
        case .digest(let named, let lines):
            diagnostics = named.flatMap(\.diagnostics)
            failures = lines
        case .diagnostics(let list, let lines):
            diagnostics = list
            failures = lines
        case .table(let rows):
            failures = rows.map { $0.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        case .text(let text):
            failures = text.split(separator: "\n").map(String.init)
        case .none:
            break
        }
        var writer = JSONWriter()
        writer.object { o in
            o.object("error") { e in
                e.field("code", code)
                e.field("message", message)
                e.array("diagnostics") { a in for d in diagnostics { a.object { d.writeFields(to: &$0) } } }
                e.array("failures") { a in for line in failures { a.value(line) } }
            }
        }
        writer.newline()
        return .json(status, writer.bytes)
    }
}
