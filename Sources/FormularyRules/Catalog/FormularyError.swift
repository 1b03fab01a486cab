/// Why a catalog or form operation failed: the same diagnostics the command-line tool prints
/// for the same text (`file:line:column`, severity, message, stable id, the source line).
///
/// ```swift
/// do { _ = try catalog.fieldType("age(min: 18, mx: 120)") }
/// catch { print(error) }   // a FormularyError, shown as `formulary` would show it
/// ```
public struct FormularyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every problem found, errors first in file order; warnings that came with them may
    /// follow. Never empty.
    public var diagnostics: [Diagnostic]

    /// An error carrying `diagnostics` (which should contain at least one error).
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// An error carrying the diagnostics of a failed parse, resolution or compilation.
    package init(_ list: DiagnosticList) {
        self.init(list.diagnostics)
    }

    /// The stable ids of the diagnostics, in order (e.g. `["unknown-type"]`).
    public var ids: [String] { diagnostics.map(\.id.rawValue) }

    /// The diagnostics as ``DiagnosticFormatter`` renders them, one after the other, without a
    /// trailing newline.
    public var description: String {
        let formatter = DiagnosticFormatter()
        return diagnostics.map { formatter.format($0) }.joined(separator: "\n")
    }
}
