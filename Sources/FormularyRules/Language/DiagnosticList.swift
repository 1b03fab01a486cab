/// Diagnostics thrown or returned together, when an operation fails for one or more reasons.
public struct DiagnosticList: Error, Sendable, Hashable, CustomStringConvertible {
    /// The diagnostics, in the order they were found.
    public var diagnostics: [Diagnostic]

    /// Wraps diagnostics to throw them.
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Every diagnostic formatted as the CLI prints it, source lines and carets included.
    public var description: String { DiagnosticFormatter().format(diagnostics) }
}

extension Array where Element == Diagnostic {
    /// Whether any of the diagnostics is an error (warnings and notes do not count).
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
