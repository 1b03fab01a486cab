// Readable `print` output for the values an app meets first. A struct dump of a result is
// a wall of field names; these say the verdict and the messages a user would read. None of
// them prints a value: a result does not know whether its type is `secure`, and an app that
// logs a result must not log a card number. An editor, which knows its type, shows its text
// unless the type is secure.

extension Violation: CustomStringConvertible {
    /// `luhn: Card number is not valid`, with `(warning)` after the rule for a warning.
    public var description: String {
        rule + (severity == .warning ? " (warning)" : "") + ": " + message
    }
}

extension FieldResult: CustomStringConvertible {
    /// The verdict, then the violations: `invalid — range: Age must be between 18 and 120`,
    /// `valid (absent)` for an empty value. Never the value itself.
    public var description: String {
        var text = verdict.rawValue
        if isAbsent { text += " (absent)" }
        if !violations.isEmpty { text += " — " + violations.map(\.description).joined(separator: "; ") }
        return text
    }
}

extension FormViolation: CustomStringConvertible {
    /// `email-again: same: The two email addresses differ` (no field: the rule first).
    public var description: String {
        (field.map { $0 + ": " } ?? "") + rule + (severity == .warning ? " (warning)" : "") + ": " + message
    }
}

extension FormResult: CustomStringConvertible {
    /// The verdict on the first line, then one line per field in key order and one per
    /// cross-field violation:
    ///
    /// ```
    /// invalid
    ///   age: invalid — required: 'age' is required
    ///   email: valid
    ///   email-again: same: The two email addresses differ
    /// ```
    public var description: String {
        var lines = [verdict.rawValue]
        for key in fields.keys.sorted() {
            lines.append("  \(key): \(fields[key]!)")
        }
        for violation in formViolations {
            lines.append("  \(violation)")
        }
        return lines.joined(separator: "\n")
    }
}

extension EditOutcome: CustomStringConvertible {
    /// `accepted: incomplete`, or `refused (mask: Credit Card Number takes digits only):
    /// incomplete` — the refusal's reason, then the verdict of the text the field keeps.
    public var description: String {
        let reason = refusal.map { " (\($0))" } ?? ""
        return (accepted ? "accepted" : "refused") + reason + ": " + result.description
    }
}

extension FieldEditor: CustomStringConvertible {
    /// `credit-card "4111 1|" incomplete`: the type, the text with `|` at the caret (or
    /// `[…]` around a selection), and the live result. A `secure` type's text is shown as
    /// one `•` a character.
    public var description: String {
        var shown = type.definition.secure ? Array(repeating: "•", count: text.count) : text.map(String.init)
        if selection.isEmpty {
            shown.insert("|", at: selection.lowerBound)
        } else {
            shown.insert("]", at: selection.upperBound)
            shown.insert("[", at: selection.lowerBound)
        }
        let marked = shown.joined()
        return "\(type.definition.name) \"\(marked)\" \(result)"
    }
}
