/// Diagnostics thrown or returned together, when an operation fails for one or more reasons.
package struct DiagnosticList: Error, Sendable, Hashable, CustomStringConvertible {
    /// The diagnostics, in the order they were found.
    package var diagnostics: [Diagnostic]

    /// Wraps diagnostics to throw them.
    package init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

    /// Every diagnostic formatted as the CLI prints it, source lines and carets included.
    package var description: String { DiagnosticFormatter().format(diagnostics) }
}

extension Array where Element == Diagnostic {
    /// Whether any of the diagnostics is an error (warnings and notes do not count).
    package var containsErrors: Bool { contains { $0.severity == .error } }
}
