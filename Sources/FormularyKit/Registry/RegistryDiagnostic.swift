import FormularyRules

/// The catalogue of the registry domain: problems that appear only when files are put
/// together into a registry (each file on its own is fine).
///
/// A type reference naming no type of the registry is the language's `unknown-type`
/// (`Registry.unknownType(_:in:source:)` builds it), as it is in a form.
public enum RegistryDiagnostic: String, DiagnosticCatalog {
    /// A type or form declared twice by files of the same source (one plugin folder).
    case duplicateDeclaration = "duplicate-declaration"

    /// `.registry`.
    public static var domain: DiagnosticDomain { .registry }

    /// `.error`: which of the two declarations counts would be a guess.
    public var defaultSeverity: Diagnostic.Severity { .error }
}

extension RegistryDiagnostic {
    /// What was declared twice, for `duplicateDeclaration(_:named:alsoIn:)`.
    public enum DeclarationKind: String, Sendable, CaseIterable {
        case type, form
    }

    /// `type 'x' is also declared in FILE; a folder may declare each type once`.
    public static func duplicateDeclaration(_ kind: DeclarationKind, named name: String,
                                            alsoIn file: String) -> DiagnosticMessage {
        RegistryDiagnostic.duplicateDeclaration.message(
            "\(kind.rawValue) '\(name)' is also declared in \(file); a folder may declare each \(kind.rawValue) once")
    }
}

extension Registry {
    /// `unknown type 'x'` (the language's id) for a reference naming no type of the
    /// registry: "did you mean" as a fix-it on the name, else a note on where to look.
    public static func unknownType(_ reference: TypeReference, in typeNames: [String]) -> DiagnosticMessage {
        var range = reference.location
        range.length = max(1, reference.name.count)
        let fixIt = Suggestion.fixIt(for: reference.name, in: typeNames, replacing: range)
        return LanguageDiagnostic.unknownType.message(
            "unknown type '\(reference.name)'", fixIts: fixIt.map { [$0] } ?? [],
            notes: fixIt == nil ? [Diagnostic.Note("'formulary types list' shows the types there are")] : [])
    }
}
