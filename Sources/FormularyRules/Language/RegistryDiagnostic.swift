/// The catalogue of the registry domain: problems that appear only when files are put
/// together (FormularyKit's `Registry`, or a catalog of a folder's files): each file on its
/// own may be fine.
///
/// A type reference naming no type there is the language's `unknown-type`
/// (`LanguageDiagnostic.unknownType(_:knownTypes:at:otherwise:)`), as it is in a form.
package enum RegistryDiagnostic: String, DiagnosticCatalog {
    /// A type or form declared twice by files of the same source (one plugin folder).
    case duplicateDeclaration = "duplicate-declaration"
    /// A file or folder that could not be read.
    case unreadableFile = "unreadable-file"

    /// `.registry`.
    package static var domain: DiagnosticDomain { .registry }

    /// `.error`: which of the two declarations counts would be a guess.
    package var defaultSeverity: Diagnostic.Severity { .error }
}

extension RegistryDiagnostic {
    /// What was declared twice, for `duplicateDeclaration(_:named:alsoIn:)`.
    package enum DeclarationKind: String, Sendable, CaseIterable {
        /// A field type (`.field`).
        case type
        /// A form (`.form`).
        case form
    }

    /// `type 'x' is also declared in FILE; a folder may declare each type once`.
    package static func duplicateDeclaration(_ kind: DeclarationKind, named name: String,
                                            alsoIn file: String) -> DiagnosticMessage {
        RegistryDiagnostic.duplicateDeclaration.message(
            "\(kind.rawValue) '\(name)' is also declared in \(file); a folder may declare each \(kind.rawValue) once")
    }

    /// `PATH: why it could not be read`.
    package static func unreadableFile(_ path: String, reason: String) -> DiagnosticMessage {
        RegistryDiagnostic.unreadableFile.message("\(path): \(reason)")
    }
}
