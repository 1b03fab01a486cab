import FormularyKit
import FormularyJSON
import FormularyRules

/// The endpoints that judge and edit values: the same engine and the same JSON as the
/// command line's `check --format json`, and the library's `FieldEditor`.
extension RegistryAPI {
    /// `POST /v1/check`: `{"type", "values", "stage"}` → `{"results": [...]}`, each result
    /// exactly as `check --format json` prints it.
    func check(_ request: HTTPRequest, _ snapshot: RegistrySnapshot) throws -> HTTPResponse {
        let body = try Self.object(request.body)
        let reference = try Self.string(body, "type")
        guard let list = body["values"]?.arrayValue else {
            throw APIError.badRequest("'values' must be an array of strings.")
        }
        let values = try list.map { value -> String in
            guard let text = value.stringValue else { throw APIError.badRequest("'values' must be an array of strings.") }
            return text
        }
        let stage = try Self.stage(body["stage"])
        let locale = try Self.locale(body, request, snapshot)
        let type = try snapshot.compile(reference, locale: locale)
        let report = CheckService.check(type, reference: reference, values: values, stage: stage)
        var writer = JSONWriter()
        writer.object { o in
            o.array("results") { a in
                for value in report.values { a.object { value.writeFields(to: &$0) } }
            }
        }
        writer.newline()
        return Self.speaking(.json(200, writer.bytes), locale, snapshot)
    }

    /// `POST /v1/edit`: one edit of a text field, as the library's `FieldEditor` makes it:
    /// `{"type", "text", "caret", "replace": {"from", "to", "with"}, "policy"}` →
    /// `{"text", "caret", "accepted", "verdict", "message", "refusal", "mask"}` (positions in
    /// characters; the verdict and message are the shown text's, so a refused keystroke
    /// leaves them as they were, and `refusal` says why it was refused; `mask` names the mask
    /// the shown text took, such as a card's brand, or is null).
    func edit(_ request: HTTPRequest, _ snapshot: RegistrySnapshot) throws -> HTTPResponse {
        let body = try Self.object(request.body)
        let reference = try Self.string(body, "type")
        let text = try Self.string(body, "text")
        let count = text.count
        let caret = try Self.position(body["caret"], "caret", count: count)
        guard let replace = body["replace"], replace.objectValue != nil else {
            throw APIError.badRequest("'replace' must be an object: {\"from\", \"to\", \"with\"}.")
        }
        let from = try Self.position(replace["from"], "replace.from", count: count)
        let to = try Self.position(replace["to"], "replace.to", count: count)
        guard from <= to else { throw APIError.badRequest("'replace.from' (\(from)) is after 'replace.to' (\(to)).") }
        guard let with = replace["with"]?.stringValue else { throw APIError.badRequest("'replace.with' must be a string.") }
        let policy: EditPolicy
        switch body["policy"] {
        case nil, .some(.null): policy = .refuseInvalid
        case .some(let value):
            guard let name = value.stringValue, let chosen = EditPolicy(rawValue: name) else {
                throw APIError.badRequest("'policy' must be \"refuse-invalid\" or \"accept-all\".")
            }
            policy = chosen
        }
        let locale = try Self.locale(body, request, snapshot)
        let type = try snapshot.compile(reference, locale: locale)
        var editor = FieldEditor(type: type, text: text, caret: caret, policy: policy, judgingLazily: true)
        let outcome = editor.replace(from..<to, with: with)
        var writer = JSONWriter()
        writer.object { o in
            o.field("text", editor.text)
            o.field("caret", editor.caret)
            o.field("accepted", outcome.accepted)
            o.field("verdict", outcome.result.verdict.rawValue)
            if let message = outcome.result.message { o.field("message", message) } else { o.nullField("message") }
            if let refusal = outcome.refusal { o.field("refusal", refusal.message) } else { o.nullField("refusal") }
            if let mask = outcome.result.mask { o.field("mask", mask) } else { o.nullField("mask") }
        }
        writer.newline()
        return Self.speaking(.json(200, writer.bytes), locale, snapshot)
    }

    // MARK: Locale

    /// The locale a judging request is answered in: its body's `locale`, else its
    /// `Accept-Language` (``RegistrySnapshot/answerLocale(field:acceptLanguage:)``); nil for
    /// the server's own.
    static func locale(_ body: JSONValue, _ request: HTTPRequest, _ snapshot: RegistrySnapshot) throws -> String? {
        let field: String?
        switch body["locale"] {
        case nil, .some(.null): field = nil
        case .some(.string(let text)): field = text
        default: throw APIError.badRequest("'locale' must be a string such as \"de\" or \"pt-BR\".")
        }
        do {
            return try snapshot.answerLocale(field: field, acceptLanguage: request.header("accept-language"))
        } catch let error as ServiceError {
            throw APIError.badRequest(error.message + ".")
        }
    }

    /// `response` saying its messages' language (`Content-Language`), when it has one.
    static func speaking(_ response: HTTPResponse, _ locale: String?, _ snapshot: RegistrySnapshot) -> HTTPResponse {
        guard let language = locale ?? snapshot.registry.locale else { return response }
        var response = response
        response.headers.append(("Content-Language", language))
        return response
    }

    // MARK: Reading bodies

    static func object(_ body: [UInt8]) throws -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser(maxDepth: 32).parse(body)
        } catch {
            throw APIError.badRequest("The body is not valid JSON: \(error).")
        }
        guard value.objectValue != nil else { throw APIError.badRequest("The body must be a JSON object.") }
        return value
    }

    static func string(_ body: JSONValue, _ key: String) throws -> String {
        guard let text = body[key]?.stringValue else { throw APIError.badRequest("'\(key)' must be a string.") }
        return text
    }

    static func stage(_ value: JSONValue?) throws -> Stage {
        switch value {
        case nil, .some(.null): return .final
        case .some(let value):
            guard let name = value.stringValue, let stage = Stage(rawValue: name) else {
                throw APIError.badRequest("'stage' must be \"final\" or \"live\".")
            }
            return stage
        }
    }

    static func position(_ value: JSONValue?, _ name: String, count: Int) throws -> Int {
        guard let position = value?.intValue, position >= 0, position <= count else {
            throw APIError.badRequest("'\(name)' must be a whole number from 0 to the text's length (\(count) characters).")
        }
        return position
    }
}
