/// One message about a plugin or form file: an error, a warning or a note.
///
/// Diagnostics carry a stable `id` (for tests, JSON output and documentation) besides
/// their human text; the text may be reworded, the id may not.
public struct Diagnostic: Sendable, Hashable, Error {
    /// How much a diagnostic counts: an `error` makes the file unusable, a `warning` does not,
    /// and a `note` adds context to the diagnostic before it.
    public enum Severity: String, Sendable, Hashable, Codable {
        case error, warning, note
    }

    /// A stable, kebab-case identifier such as `unknown-directive`.
    public var id: String
    /// Error, warning or note.
    public var severity: Severity
    /// The human text, without location or id.
    public var message: String
    /// Where in which file the diagnostic points.
    public var location: SourceLocation
    /// The full text of the source line the location points into (without its newline).
    public var sourceLine: String

    /// Makes a diagnostic.
    public init(id: String, severity: Severity, message: String,
                location: SourceLocation, sourceLine: String) {
        self.id = id
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }
}
