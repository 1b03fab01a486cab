/// Which part of Formulary a diagnostic comes from; each has one catalogue of ids.
public enum DiagnosticDomain: String, Sendable, Hashable, CaseIterable {
    /// Reading `.field` and `.form` files: lexing, parsing, `extends`, form checks
    /// (`LanguageDiagnostic`).
    case language
    /// Compiling a resolved type with its arguments: contradictions, masks, regexes
    /// (`CompilerDiagnostic`).
    case compiler
    /// Putting files together into a registry or a catalog: names declared twice,
    /// unreadable files (`RegistryDiagnostic`).
    case registry
    /// Reading message catalogs (`.messages` files): their lines, and keys or placeholders
    /// that name nothing of the types and forms (`MessagesDiagnostic`).
    case messages
}

/// The typed identifier of a diagnostic: its domain and its stable kebab-case string.
///
/// Ids are made only by the domain catalogues (`DiagnosticCatalog.id`), never spelled at
/// the place that reports a problem. `rawValue` is what tests, JSON output and
/// documentation show; it is unique across all domains, and may be added but never renamed.
public struct DiagnosticID: Sendable, Hashable, CustomStringConvertible {
    /// The catalogue the id belongs to.
    public let domain: DiagnosticDomain
    /// The stable string, e.g. `unknown-directive`.
    public let rawValue: String

    init(domain: DiagnosticDomain, rawValue: String) {
        self.domain = domain
        self.rawValue = rawValue
    }

    /// The stable string (`rawValue`).
    public var description: String { rawValue }
}

/// One domain's list of diagnostics: an enum whose cases are the domain's ids (raw value:
/// the stable string), each with its default severity. Messages are built by the
/// catalogue: `message(_:)` for a text written where the problem is found, or the
/// catalogue's typed builders (`CompilerDiagnostic.emptyRange(_:)`, …).
package protocol DiagnosticCatalog: RawRepresentable, CaseIterable, Sendable, Hashable
where RawValue == String {
    /// The domain every case belongs to.
    static var domain: DiagnosticDomain { get }
    /// The severity a diagnostic with this id has unless its builder says otherwise.
    var defaultSeverity: Diagnostic.Severity { get }
}

extension DiagnosticCatalog {
    /// The typed id of this case.
    package var id: DiagnosticID { DiagnosticID(domain: Self.domain, rawValue: rawValue) }

    /// A message with this id and its default severity (or `severity`), whose text is
    /// `text`; suggestions and hints go into `fixIts` and `notes`, not into `text`.
    package func message(_ text: String, fixIts: [Diagnostic.FixIt] = [], notes: [Diagnostic.Note] = [],
                        severity: Diagnostic.Severity? = nil) -> DiagnosticMessage {
        DiagnosticMessage(id: id, severity: severity ?? defaultSeverity, text: text,
                          fixIts: fixIts, notes: notes)
    }
}

/// A diagnostic before it has a place: what a catalogue's builder returns. The emit site
/// adds the location (`Diagnostic.init(_:at:sourceLine:)` or `SourceLines.diagnostic`).
package struct DiagnosticMessage: Sendable, Hashable {
    /// The id, from a catalogue.
    package var id: DiagnosticID
    /// The severity, the id's default unless the builder chose another.
    package var severity: Diagnostic.Severity
    /// What is wrong, without suggestions.
    package var text: String
    /// Replacements that would resolve it ("did you mean").
    package var fixIts: [Diagnostic.FixIt]
    /// Hints and related places.
    package var notes: [Diagnostic.Note]
}
