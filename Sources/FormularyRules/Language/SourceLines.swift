/// The physical lines of one source file, kept so that diagnostics can show the line they
/// point into long after the tokens are gone (for example when `extends` is resolved).
public struct SourceLines: Sendable, Hashable {
    /// The file name as it appears in diagnostics, e.g. `plugins/age.field`.
    public var file: String
    /// Every physical line, without its line break. Invalid UTF-8 is shown as U+FFFD.
    public var lines: [String]

    public init(file: String, lines: [String]) {
        self.file = file
        self.lines = lines
    }

    /// The text of 1-based line `number`, or "" when there is no such line.
    public func text(ofLine number: Int) -> String {
        number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }

    /// A diagnostic pointing at `location` in this file, with its source line filled in.
    public func diagnostic(_ id: DiagnosticID, _ severity: Diagnostic.Severity = .error,
                           _ message: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(id: id.rawValue, severity: severity, message: message, location: location,
                   sourceLine: location.file == file ? text(ofLine: location.line) : "")
    }
}
