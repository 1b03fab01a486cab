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

    /// The token scope the route needs (nil: none, even without `--public-read`).
    var scope: TokenScope? {
        switch self {
        case .health: nil
        default: .read
        }
    }

    /// Whether the route reads a JSON body.
    var needsBody: Bool {
        switch self {
        case .check, .edit: true
        default: false
        }
    }

    init?(method: String, segments: [String]) {
        let path = segments.joined(separator: "/")
        let name = segments.count == 3 ? segments[2] : nil
        switch method {
        case "GET":
            if path == "healthz" { self = .health }
            else if path == "v1/types" { self = .types }
            else if path == "v1/forms" { self = .forms }
            else if path == "v1/export" { self = .export }
            else if let name, segments[0] == "v1", segments[1] == "types" { self = .type(name) }
            else if let name, segments[0] == "v1", segments[1] == "forms" { self = .form(name) }
            else { return nil }
        case "POST":
            if path == "v1/check" { self = .check }
            else if path == "v1/edit" { self = .edit }
            else { return nil }
        default:
            return nil
        }
    }

    /// Whether some method is routed at this path (then another method gets 405, not 404).
    static func knownPath(_ segments: [String]) -> Bool {
        ["GET", "POST"].contains { Route(method: $0, segments: segments) != nil }
    }
}

/// What a token may do: `read` the registry, also `submit` entries, or also change it
/// (`admin`).
public enum TokenScope: String, Sendable, CaseIterable, Comparable {
    case read, submit, admin

    /// `read` < `submit` < `admin`.
    public static func < (a: TokenScope, b: TokenScope) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
