import FormularyKit

/// The API's endpoints, matched from a method and the path's segments.
enum Route: Equatable {
    case health
    case types
    case type(String)
    case forms
    case form(String)
    case export
    case check
    case edit
    /// `POST /v1/forms/NAME/judge`
    case judge(String)
    /// `POST /v1/forms/NAME/entries`
    case submit(String)
    /// `GET /v1/runs`
    case runs
    /// `GET /v1/runs/ID/report` (the id as sent; the handler reads it)
    case report(String)
    /// `GET /v1/audit`
    case audit
    /// `POST /v1/types` (a `.field` file as the body)
    case addType
    /// `POST /v1/forms` (a `.form` file as the body)
    case addForm
    /// `POST /v1/types/NAME/compatibility` (a proposed `.field` file as the body)
    case compatibility(String)

    /// What a route's body must be.
    enum Body {
        /// `Content-Type: application/json`.
        case json
        /// `Content-Type: text/plain`: the source of a plugin file.
        case text
    }

    /// The token scope the route needs (nil: none, even without `--public-read`).
    var scope: TokenScope? {
        switch self {
        case .health: nil
        case .submit: .submit
        // Weighing a version judges every stored entry that uses the type: as costly as a
        // validation run, so it is for the tokens that may add the version too.
        case .addType, .addForm, .compatibility: .admin
        default: .read
        }
    }

    /// The body the route reads, if any.
    var body: Body? {
        switch self {
        case .check, .edit, .judge, .submit: .json
        case .addType, .addForm, .compatibility: .text
        default: nil
        }
    }

    init?(method: String, segments: [String]) {
        let path = segments.joined(separator: "/")
        let name = segments.count == 3 ? segments[2] : nil
        let v1 = segments.first == "v1"
        switch method {
        case "GET":
            if path == "healthz" { self = .health }
            else if path == "v1/types" { self = .types }
            else if path == "v1/forms" { self = .forms }
            else if path == "v1/export" { self = .export }
            else if path == "v1/runs" { self = .runs }
            else if path == "v1/audit" { self = .audit }
            else if let name, v1, segments[1] == "types" { self = .type(name) }
            else if let name, v1, segments[1] == "forms" { self = .form(name) }
            else if v1, segments.count == 4, segments[1] == "runs", segments[3] == "report" { self = .report(segments[2]) }
            else { return nil }
        case "POST":
            if path == "v1/check" { self = .check }
            else if path == "v1/edit" { self = .edit }
            else if path == "v1/types" { self = .addType }
            else if path == "v1/forms" { self = .addForm }
            else if v1, segments.count == 4, segments[1] == "forms", segments[3] == "judge" { self = .judge(segments[2]) }
            else if v1, segments.count == 4, segments[1] == "forms", segments[3] == "entries" { self = .submit(segments[2]) }
            else if v1, segments.count == 4, segments[1] == "types", segments[3] == "compatibility" {
                self = .compatibility(segments[2])
            }
            else { return nil }
        default:
            return nil
        }
    }

    /// The route of a path written the usual way (`/v1/check`, no doubled or trailing
    /// slash), without splitting it: the endpoints asked on every keystroke are matched
    /// first. Nil sends the path to ``init(method:segments:)``, which knows them all.
    static func exact(method: String, path: String) -> Route? {
        switch path {
        case "/v1/edit": method == "POST" ? .edit : nil
        case "/v1/check": method == "POST" ? .check : nil
        case "/healthz": method == "GET" ? .health : nil
        default: nil
        }
    }

    /// The methods routed at this path, as an `Allow` header lists them (`GET, HEAD`,
    /// `POST`, or both); nil when none is (then any method gets 404, not 405).
    static func allowedMethods(_ segments: [String]) -> String? {
        switch (Route(method: "GET", segments: segments) != nil, Route(method: "POST", segments: segments) != nil) {
        case (true, true): "GET, HEAD, POST"
        case (true, false): "GET, HEAD"
        case (false, true): "POST"
        case (false, false): nil
        }
    }
}

