import FormularyKit
import FormularyJSON

/// One HTTP request as the registry's API sees it: plain values, so that handlers are
/// functions from request to response that tests call without a socket.
package struct HTTPRequest: Sendable {
    /// The method, upper case (`GET`, `POST`…).
    package var method: String
    /// The path without the query (`/v1/types/email`).
    package var path: String
    /// The query's arguments, decoded (`by=rule` → `["by": "rule"]`).
    package var query: [String: String]
    /// The headers, with lower-case names.
    package var headers: [String: String]
    /// The body's bytes (empty for most `GET`s).
    package var body: [UInt8]

    /// A request; header names are lower-cased.
    package init(method: String, path: String, query: [String: String] = [:],
                headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A request whose header names are already lower case (the server makes them so as
    /// it copies them): not lower-cased and merged a second time.
    init(method: String, path: String, query: [String: String], lowercasedHeaders: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = lowercasedHeaders
        self.body = body
    }

    /// The value of header `name` (any case), if sent.
    package func header(_ name: String) -> String? {
        // Names are stored lower case, so a name found as given is the answer; the server's
        // own lookups pass lower-case names and skip lower-casing.
        headers[name] ?? headers[name.lowercased()]
    }
}

/// One HTTP response: status, headers and body bytes.
package struct HTTPResponse: Sendable, Equatable {
    /// The status code (200, 404…).
    package var status: Int
    /// The headers to send, in order.
    package var headers: [(name: String, value: String)]
    /// The body's bytes.
    package var body: [UInt8]
    /// The name of the token that was accepted, for the access log (never the token).
    package var tokenName: String?

    /// A response with `status`, `headers` and `body`.
    package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON document (`Content-Type: application/json`), newline-terminated.
    package static func json(_ status: Int, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: bytes)
    }

    /// A JSON document written from a model.
    package static func json(_ status: Int, _ model: some JSONRepresentable) -> HTTPResponse {
        json(status, model.jsonDocument)
    }

    /// An error answer: `{"error": {"code", "message"}}`, `code` a stable word
    /// (`not_found`, `bad_request`…) and `message` plain text saying what to do.
    package static func error(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        var writer = JSONWriter()
        writer.object { o in
            o.object("error") { e in
                e.field("code", code)
                e.field("message", message)
            }
        }
        return json(status, writer.bytes + [0x0A])
    }

    /// Statuses and headers compare; bodies too.
    package static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.tokenName == b.tokenName
            && a.headers.map { "\($0.name): \($0.value)" } == b.headers.map { "\($0.name): \($0.value)" }
    }

    /// The value of header `name` (any case), if set.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
