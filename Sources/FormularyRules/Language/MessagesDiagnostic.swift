/// The catalogue of the messages domain: what reading a message catalog (`de.messages`,
/// `pt-BR.messages`) can report. A string's own lexical problems (an unterminated string, a
/// bad escape) keep their language ids, as in a plugin file.
///
/// Keys and placeholders are checked against the types and forms the catalog sits beside;
/// what names nothing there is a warning: the catalog still works, and a type the key
/// names may come from another folder.
package enum MessagesDiagnostic: String, DiagnosticCatalog {
    /// A file whose name is not a locale tag followed by `.messages` (`de`, `pt-BR`).
    case invalidLocale = "invalid-locale"
    /// A line that is not `KEY = "TEXT"` (or `form KEY = "TEXT"`).
    case invalidMessageLine = "invalid-message-line"
    /// A key that is not `TYPE.RULE` or `form FORM.FIELD.ITEM` of valid names (FIELD or both
    /// `*` for a form's rule or a default).
    case invalidMessageKey = "invalid-message-key"
    /// A key given twice in one file.
    case duplicateMessageKey = "duplicate-message-key"
    /// A key naming a type, rule, form or field there is not; a warning.
    case unknownMessageKey = "unknown-message-key"
    /// A `{NAME}` in the text that the English text cannot fill; a warning.
    case unknownPlaceholder = "unknown-placeholder"

    /// `.messages`.
    package static var domain: DiagnosticDomain { .messages }

    /// `.warning` for keys and placeholders that name nothing (the file still works);
    /// `.error` for what makes a line unreadable.
    package var defaultSeverity: Diagnostic.Severity {
        self == .unknownMessageKey || self == .unknownPlaceholder ? .warning : .error
    }
}

extension MessagesDiagnostic {
    /// `'x.messages' is not named for a locale: …`.
    package static func invalidLocale(_ name: String) -> DiagnosticMessage {
        invalidLocale.message("'\(name)' is not named for a locale",
                              notes: [Diagnostic.Note("name a catalog for its locale: de.messages, pt-BR.messages")])
    }

    /// `expected … ` on a line that is not `KEY = "TEXT"`.
    package static func invalidLine(_ problem: String) -> DiagnosticMessage {
        invalidMessageLine.message(problem, notes: [Diagnostic.Note(#"write KEY = "TEXT", e.g. age.range = "…""#)])
    }

    /// `'x' is not a message key: …`.
    package static func invalidKey(_ key: String, form: Bool) -> DiagnosticMessage {
        invalidMessageKey.message("'\(key)' is not a message key",
                                  notes: [Diagnostic.Note(form ? "a form's key is form FORM.FIELD.ITEM, e.g. form signup.age.required, form signup.*.RULE for a rule, or form *.*.required"
                                                               : "a type's key is TYPE.RULE, e.g. age.range, or TYPE.label")])
    }

    /// `'k' is already given on line N`.
    package static func duplicateKey(_ key: String, earlierLine: Int) -> DiagnosticMessage {
        duplicateMessageKey.message("'\(key)' is already given on line \(earlierLine)")
    }

    /// `no type 'x'` / `'r' is not a rule of type 't'`, with a "did you mean".
    package static func unknownKey(_ text: String, fixIt: Diagnostic.FixIt?, note: String?) -> DiagnosticMessage {
        unknownMessageKey.message(text, fixIts: fixIt.map { [$0] } ?? [], notes: note.map { [Diagnostic.Note($0)] } ?? [])
    }

    /// `'{x}' is not in the English text of 'k'`.
    package static func unknownPlaceholder(_ name: String, key: String, known: [String]) -> DiagnosticMessage {
        let note = known.isEmpty ? "it has none" : "it has " + known.map { "{\($0)}" }.joined(separator: ", ")
        return unknownPlaceholder.message("'{\(name)}' is not filled in for '\(key)': the English text does not have it",
                                          notes: [Diagnostic.Note(note)])
    }
}
