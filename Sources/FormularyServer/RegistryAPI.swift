import FormularyKit
import Foundation
import FormularyJSON
import FormularyRules

/// The registry over HTTP (`formulary serve`): routes a request to its handler and answers.
///
/// Every handler is a plain function from ``HTTPRequest`` to ``HTTPResponse``; the server
/// (``HTTPServer``) only moves bytes. The registry the answers come from is loaded once and
/// kept until the database changes (another process adding a type shows on the next
/// request: each request compares the audit log's newest record with the one the registry
/// was loaded at). Safe to call from several threads at once.
package final class RegistryAPI: Sendable {
    /// Where the registry comes from and who acts.
    package let settings: WorkspaceSettings
    /// Whether reads need no token.
    package let publicRead: Bool
    let today: @Sendable () -> CivilDate
    let state: RegistryState
    /// Where a failure's detail goes for the operator (the answer says only what failed).
    let problems: (@Sendable (String) -> Void)?

    /// Largest request body accepted (1 MiB); a larger one is answered 413.
    package static let maxBodyBytes = 1 << 20

    /// An API over the registry of `settings`; `today` gives the date checks use (the
    /// command's `--today`, or the local date at each request). A request the server fails
    /// to answer (its database unreachable, an SQL error) is answered 503 or 500 without
    /// the cause, which goes to `problems` as one line: the request and what failed, never
    /// a body or a value.
    package init(settings: WorkspaceSettings, publicRead: Bool, today: @escaping @Sendable () -> CivilDate,
                problems: (@Sendable (String) -> Void)? = nil) {
        self.settings = settings
        self.publicRead = publicRead
        self.today = today
        self.problems = problems
        state = RegistryState(settings: settings)
    }

    /// The answer to `request`. Never throws: every failure is an error answer.
    package func respond(to request: HTTPRequest) -> HTTPResponse {
        if request.body.count > Self.maxBodyBytes {
            return .error(413, "too_large", "The request body is larger than 1 MiB; send less at a time.")
        }
        // HEAD is answered as GET: libmicrohttpd sends the same status and headers, no body.
        let method = request.method == "HEAD" ? "GET" : request.method
        if let page = WebPage.response(method: method, path: request.path) { return page }
        if method == "GET" && request.path == RuntimeScript.path {
            return RuntimeScript.response(ifNoneMatch: request.header("if-none-match"))
        }
        let route: Route
        if let exact = Route.exact(method: method, path: request.path) {
            route = exact
        } else {
            let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            guard let matched = Route(method: method, segments: segments) else {
                let static_ = WebPage.routes[request.path] != nil || request.path == RuntimeScript.path
                if let allowed = static_ ? "GET, HEAD" : Route.allowedMethods(segments) {
                    var response = HTTPResponse.error(405, "method_not_allowed",
                                                      "\(request.method) is not allowed on \(request.path); use \(allowed).")
                    response.headers.append(("Allow", allowed))
                    return response
                }
                return .error(404, "not_found", "There is no \(request.path); the API is under /v1 (see docs/http.md).")
            }
            route = matched
        }
        switch route.body {
        case .json where !Self.isMedia("application/json", request.header("content-type")):
            return .error(415, "unsupported_media_type", "Send the body as JSON, with 'Content-Type: application/json'.")
        case .text where !Self.isMedia("text/plain", request.header("content-type")):
            return .error(415, "unsupported_media_type",
                          "Send the plugin file's text as the body, with 'Content-Type: text/plain'.")
        default:
            break
        }
        if route == .health { return Self.health }
        // Set once the token is accepted, so that the access log names it on errors too.
        var tokenName: String?
        let snapshot: RegistrySnapshot
        do {
            // One snapshot per request: its freshness check is a read under a lock.
            snapshot = try state.snapshot(today: today())
        } catch {
            // Nothing in the request decides whether the registry loads: whatever failed
            // (the database, a plugin folder) is the server's, and stays in its log.
            return failure(request, error, status: 503)
        }
        var response: HTTPResponse
        do {
            if let needed = route.scope {
                tokenName = try authorize(request, needing: needed, tokens: snapshot.tokens)
            }
            response = try handle(route, request, snapshot, tokenName: tokenName)
        } catch let error as APIError {
            response = .error(error.status, error.code, error.message)
        } catch let rejection as APIRejection {
            response = rejection.response
        } catch let error as ServiceError where error.kind.isCallers {
            let (status, code) = Self.status(of: error.kind)
            response = .error(status, code, error.message)
        } catch let error as ServiceError {
            response = failure(request, error, status: 503)
        } catch {
            response = failure(request, error, status: 500)
        }
        response.tokenName = tokenName
        return response
    }

    /// The answer to a request the server failed: what failed in plain words, never the
    /// cause (SQL, file paths, a library's message), which goes to ``problems``.
    func failure(_ request: HTTPRequest, _ error: any Error, status: Int) -> HTTPResponse {
        if let problems {
            var detail = "\(error)"
            if let error = error as? ServiceError, case .text(let text) = error.details { detail += " (\(text))" }
            problems("formulary: serve: \(HTTPServer.AccessLogLine.escaped(request.method)) "
                     + "\(HTTPServer.AccessLogLine.escaped(request.path)) answered \(status): \(TerminalText.escaped(detail))")
        }
        return status == 503
            ? .error(503, "unavailable", "The server cannot use its registry (its database or plugin files) just now; try again shortly. "
                     + "If it goes on, the server's log says why.")
            : .error(500, "internal", "The server failed to answer this request; the server's log says why. "
                     + "Try again, and if it goes on, tell the server's operator.")
    }

    /// The answer to a service's failure that is the caller's: what happened, in the kinds
    /// ``ServiceError/Kind`` names, without looking at the message.
    static func status(of kind: ServiceError.Kind) -> (status: Int, code: String) {
        switch kind {
        case .badInput: (400, "bad_request")
        case .notFound: (404, "not_found")
        case .conflict: (409, "conflict")
        case .notAllowed: (403, "forbidden")
        case .environment: (503, "unavailable")
        }
    }

    /// `GET /healthz`: answered without the registry.
    static let health = HTTPResponse.json(200, Array(#"{"status":"ok"}"#.utf8) + [0x0A])

    private func handle(_ route: Route, _ request: HTTPRequest, _ snapshot: RegistrySnapshot,
                        tokenName: String?) throws -> HTTPResponse {
        switch route {
        case .health:
            return Self.health
        case .types:
            return .json(200, snapshot.typeList)
        case .type(let name):
            guard let bytes = snapshot.types[name] else {
                throw APIError(404, "not_found", "There is no type '\(name)'.")
            }
            return .json(200, bytes)
        case .forms:
            return .json(200, snapshot.formList)
        case .form(let name):
            guard let bytes = snapshot.forms[name] else {
                throw APIError(404, "not_found", "There is no form '\(name)'.")
            }
            return .json(200, bytes)
        case .export:
            let etag = "\"\(snapshot.exportHash)\""
            // The day the server's date checks measure from (its --today, or its local date), so
            // that a page running formulary.js judges as the server does.
            let day = ("Formulary-Today", today().description)
            if let sent = request.header("if-none-match"),
               sent.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
                return HTTPResponse(status: 304, headers: [("ETag", etag), day])
            }
            var response = HTTPResponse.json(200, snapshot.export)
            response.headers.append(("ETag", etag))
            response.headers.append(day)
            return response
        case .check:
            return try check(request, snapshot)
        case .edit:
            return try edit(request, snapshot)
        case .judge(let name):
            return try judge(form: name, request, snapshot)
        case .submit(let name):
            return try submit(form: name, request, snapshot, actor: tokenName ?? settings.actor)
        case .runs:
            return try runs()
        case .report(let id):
            return try report(run: id, request)
        case .audit:
            return try audit(request)
        case .addType:
            return try add(.type, request, actor: tokenName ?? settings.actor)
        case .addForm:
            return try add(.form, request, actor: tokenName ?? settings.actor)
        case .compatibility(let name):
            return try compatibility(of: name, request)
        }
    }

    /// The name of the request's token when it may do what `needed` allows; nil for a
    /// read without a token on a `--public-read` server.
    ///
    /// - Throws: 401 without a token (where one is needed) or with one the server does not
    ///   know or that was revoked; 403 with a token of too small a scope.
    func authorize(_ request: HTTPRequest, needing needed: TokenScope,
                   tokens: [String: (name: String, scope: TokenScope)]) throws -> String? {
        guard let header = request.header("authorization") else {
            if publicRead && needed == .read { return nil }
            throw APIError(401, "unauthorized", "This needs a token: send 'Authorization: Bearer TOKEN' (see 'formulary tokens add').")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError(401, "unauthorized", "Send the token as 'Authorization: Bearer TOKEN'.")
        }
        let hash = TokenService.hash(String(parts[1]).trimmingCharacters(in: .whitespaces))
        guard let token = tokens[hash] else {
            throw APIError(401, "unauthorized", "The token is not known or was revoked.")
        }
        guard token.scope >= needed else {
            throw APIError(403, "forbidden", "The token '\(token.name)' has scope \(token.scope.rawValue); this needs \(needed.rawValue).")
        }
        return token.name
    }

    /// Whether a `Content-Type` names the media type `expected` (lower case; any case sent,
    /// parameters such as `; charset=utf-8` allowed). Compared as bytes: it runs on every
    /// request.
    static func isMedia(_ expected: StaticString, _ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let expected = UnsafeBufferPointer(start: expected.utf8Start, count: expected.utf8CodeUnitCount)
        var media = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }[...]
        while let first = media.first, first == 0x20 || first == 0x09 { media = media.dropFirst() }
        while let last = media.last, last == 0x20 || last == 0x09 { media = media.dropLast() }
        guard media.count == expected.count else { return false }
        return zip(media, expected).allSatisfy { byte, wanted in
            (0x41...0x5A).contains(byte) ? byte + 0x20 == wanted : byte == wanted
        }
    }
}

/// A failure with its HTTP status, stable code and message.
struct APIError: Error {
    var status: Int
    var code: String
    var message: String

    init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    static func badRequest(_ message: String) -> APIError { APIError(400, "bad_request", message) }
}
