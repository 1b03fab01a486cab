import FormularyKit
import FormularyJSON
import FormularyRules

/// The endpoints of one form: judging a filled-in form (`forms judge`) and storing an
/// entry (an import of one record).
extension RegistryAPI {
    /// `POST /v1/forms/NAME/judge`: `{"fields": {KEY: VALUE…}, "stage"}` → the document
    /// `forms judge --format json` prints for the same values (``JudgeService/Judgement``).
    func judge(form name: String, _ request: HTTPRequest, _ snapshot: RegistrySnapshot) throws -> HTTPResponse {
        let body = try Self.object(request.body)
        let stage = try Self.stage(body["stage"])
        let locale = try Self.locale(body, request, snapshot)
        guard let form = try snapshot.judge(form: name, locale: locale) else { throw Self.noForm(name) }
        guard let fields = body["fields"]?.objectValue else {
            throw APIError.badRequest("'fields' must be an object of field keys and string values.")
        }
        var values: [String: String] = [:]
        for (key, value) in zip(fields.keys, fields.values) {
            switch value {
            case .string(let text): values[key] = text
            case .null: continue   // absent, as in an import
            default: throw APIError.badRequest("The value of '\(key)' must be a string (or null for none).")
            }
        }
        return Self.speaking(.json(200, JudgeService.judge(form, values: values, stage: stage).jsonDocument), locale, snapshot)
    }

    /// `POST /v1/forms/NAME/entries` (scope `submit`): `{"key"?, "fields"}` → 201 `{"id",
    /// "verdict"}`: stored and audited as an import of one record whose source is
    /// `http:ACTOR` (see ``ImportService/submit(form:key:fields:source:today:)``); 409 when
    /// the form already has an entry with the key.
    func submit(form name: String, _ request: HTTPRequest, _ snapshot: RegistrySnapshot, actor: String) throws -> HTTPResponse {
        let body = try Self.object(request.body)
        guard let form = try snapshot.judge(form: name) else { throw Self.noForm(name) }
        guard let fields = body["fields"], fields.objectValue != nil else {
            throw APIError.badRequest("'fields' must be an object of field keys and values.")
        }
        var key: String?
        switch body["key"] {
        case nil, .some(.null): key = nil
        case .some(.string(let text)) where !text.allSatisfy(\.isWhitespace): key = text
        default: throw APIError.badRequest("'key' must be a string that is not empty (or left out).")
        }
        var acting = settings
        acting.actor = actor
        let outcome = try ImportService(workspace: Workspace(settings: acting))
            .submit(form, key: key, fields: fields, source: "http:\(actor)")
        switch outcome {
        case .duplicateKey(let id):
            throw APIError(409, "conflict", "Entry \(id) of form '\(name)' already has this key; nothing was stored. "
                           + "Send another key, or none.")
        case .stored(let id, let verdict):
            var writer = JSONWriter()
            writer.object { o in
                o.field("id", Int(id))
                o.field("verdict", verdict.rawValue)
            }
            writer.newline()
            return .json(201, writer.bytes)
        }
    }

    static func noForm(_ name: String) -> APIError {
        APIError(404, "not_found", "There is no form '\(name)'; GET /v1/forms lists them.")
    }
}
