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
        // A name diagnostics show, not a file on the server: `--plugins` folders are not
        // touched, and the registry takes it as the highest-precedence file.
        let file = PluginFile(path: kind == .type ? "request.field" : "request.form", bytes: request.body,
                              source: .folder(PluginFolder(path: "", origin: .option)))
        var warnings: [Diagnostic] = []
        let collect: RegistryService.WarningSink = { details in
            if case .digest(let named, _) = details { warnings += named.flatMap(\.diagnostics) }
            if case .diagnostics(let list, _) = details { warnings += list }
        }
        let admission: RegistryService.Admission
        do {
            admission = kind == .type
                ? try service.addTypes(pluginFiles: [file], today: today(), warnings: collect)
                : try service.addForms(pluginFiles: [file], addTypes: false, today: today(), warnings: collect)
        } catch let error as ServiceError where error.kind == .badInput {
            throw APIRejection(message: error.message, details: error.details)
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

/// A definition refused by the admission: 422 with its diagnostics.
struct APIRejection: Error {
    var message: String
    var details: ServiceError.Details

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
                e.field("code", "unprocessable")
                e.field("message", message)
                e.array("diagnostics") { a in for d in diagnostics { a.object { d.writeFields(to: &$0) } } }
                e.array("failures") { a in for line in failures { a.value(line) } }
            }
        }
        writer.newline()
        return .json(422, writer.bytes)
    }
}
