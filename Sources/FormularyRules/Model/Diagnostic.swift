/// One message about a plugin or form file: an error, a warning or a note.
///
/// Diagnostics carry a typed, stable `id` (for tests, JSON output and documentation)
/// besides their human text; the text may be reworded, the id may not. What would help
/// fix the problem travels beside the message rather than inside it: `fixIts` (a
/// replacement for a range of the source, such as a "did you mean" spelling) and `notes`.
/// `text` (what `DiagnosticFormatter` prints) puts them back after the message.
public struct Diagnostic: Sendable, Hashable, Error {
    /// How bad a diagnostic is: an error makes the file unusable, a warning does not.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The file (or the type) cannot be used.
        case error
        /// Worth fixing; the type still works.
        case warning
        /// A remark.
        case note
    }

    /// The id, from its domain's catalogue (`LanguageDiagnostic`, `CompilerDiagnostic`,
    /// `RegistryDiagnostic`); `id.rawValue` is the kebab-case string, e.g. `unknown-directive`.
    public var id: DiagnosticID
    /// How bad it is; usually the catalogue's `defaultSeverity` for the id.
    public var severity: Severity
    /// What is wrong, without suggestions or notes (see `text` for the whole line).
    public var message: String
    /// Where: the file, line, column and the length of the offending token.
    public var location: SourceLocation
    /// The full text of the source line the location points into (without its newline).
    public var sourceLine: String
    /// Changes to the source that would resolve the diagnostic, most likely first.
    public var fixIts: [FixIt]
    /// Further explanation: what to do, what is allowed, where something was declared.
    public var notes: [Note]

    /// A diagnostic with an explicit severity.
    package init(id: DiagnosticID, severity: Severity, message: String,
                location: SourceLocation, sourceLine: String,
                fixIts: [FixIt] = [], notes: [Note] = []) {
        self.id = id
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
        self.fixIts = fixIts
        self.notes = notes
    }

    /// A diagnostic made from a catalogue's message, with the severity the message chose
    /// (its id's default unless the builder said otherwise).
    package init(_ message: DiagnosticMessage, at location: SourceLocation, sourceLine: String) {
        self.init(id: message.id, severity: message.severity, message: message.text,
                  location: location, sourceLine: sourceLine, fixIts: message.fixIts, notes: message.notes)
    }

    /// The message followed by each fix-it's and each note's message, after "; ", as
    /// one line: `unknown directive 'rnage'; did you mean 'range'?`. This is what the
    /// formatter prints and what JSON output calls `message`, so moving a suggestion out of
    /// the message did not change a printed character.
    public var text: String {
        var text = message
        for fixIt in fixIts { text += "; " + fixIt.message }
        for note in notes { text += "; " + note.message }
        return text
    }
}

extension Diagnostic {
    /// A remark attached to a diagnostic: a hint about what to do, or a pointer to a
    /// related place (an earlier declaration).
    public struct Note: Sendable, Hashable {
        /// The remark, e.g. `its parameters are 'min' or 'max'`.
        public var message: String
        /// The place the note is about, when it differs from the diagnostic's or matters.
        public var location: SourceLocation?

        /// A note, at `location` when there is one to point to.
        package init(_ message: String, at location: SourceLocation? = nil) {
            self.message = message
            self.location = location
        }
    }

    /// A change to the source that resolves the diagnostic: `replacement` instead of the
    /// characters `range` covers (on `range.line`, from `range.column`, `range.length`
    /// characters, counted as `SourceLocation` counts them: grapheme clusters).
    public struct FixIt: Sendable, Hashable {
        /// What the change does, e.g. `did you mean 'range'?`.
        public var message: String
        /// The characters to replace.
        public var range: SourceLocation
        /// The text to put in their place.
        public var replacement: String

        /// A fix-it replacing `range` by `replacement`.
        package init(_ message: String, replacing range: SourceLocation, with replacement: String) {
            self.message = message
            self.range = range
            self.replacement = replacement
        }

        /// `line` (the text of `range.line`) with the change applied, or nil when the range
        /// does not lie within it.
        public func applied(to line: String) -> String? {
            let characters = Array(line)
            let start = range.column - 1
            guard start >= 0, start + range.length <= characters.count else { return nil }
            return String(characters[..<start]) + replacement + String(characters[(start + range.length)...])
        }
    }
}
