/// A check's message, parsed once at compile time.
///
/// `{value}` is filled with the value when the check fails (`•••` for a `secure` type:
/// a secret never appears in a message); `{min}`, `{max}` and `{NAME}` of a parameter are
/// filled at compile time. Any other `{…}` is left as written.
struct MessageTemplate: Sendable {
    private enum Segment: Sendable {
        case text(String)
        case value
    }

    private let segments: [Segment]
    private let secure: Bool

    static let securePlaceholder = "•••"

    init(_ template: String, substitutions: [String: String], secure: Bool) {
        self.secure = secure
        var segments: [Segment] = []
        var text = ""
        Self.scan(template, text: { text += $0 }, placeholder: { name in
            if name == "value" {
                if !text.isEmpty { segments.append(.text(text)); text = "" }
                segments.append(.value)
            } else if let replacement = substitutions[name] {
                text += replacement
            } else {
                text += "{\(name)}"
            }
        })
        if !text.isEmpty { segments.append(.text(text)) }
        self.segments = segments
    }

    /// Walks a message's text: `text` gets each run of literal text and `placeholder` the
    /// name inside each `{…}`, in order; an unclosed `{` is literal text. The one reading of
    /// the placeholder syntax, for filling messages and for linting catalogs.
    static func scan(_ template: String, text: (Substring) -> Void, placeholder: (String) -> Void) {
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { break }
            text(rest[..<open])
            placeholder(String(after[..<close]))
            rest = after[after.index(after: close)...]
        }
        text(rest)
    }

    /// `text` with its `{NAME}`s of `substitutions` filled in, for texts that never show a
    /// value (labels, help, placeholders, a form's `required`): `{value}` is left out.
    static func fill(_ text: String, _ substitutions: [String: String]) -> String {
        MessageTemplate(text, substitutions: substitutions, secure: false).render(value: Bytes(start: nil, count: 0))
    }

    func render(value: Bytes) -> String {
        var out = ""
        for segment in segments {
            switch segment {
            case .text(let t): out += t
            case .value: out += secure ? Self.securePlaceholder : makeString(value)
            }
        }
        return out
    }
}
