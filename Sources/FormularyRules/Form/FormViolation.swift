/// One failed rule of one entry of a form: a field type's check, `required`, a cross-field
/// rule (`same`, `require … when`) or `unknown-field`. Batch validation records these for
/// each stored entry; ``FormValidator`` reports the same ones for an app's values.
public struct FormViolation: Sendable, Hashable {
    /// The field it concerns (for a cross-field rule, the field it is reported on; for
    /// `unknown-field`, the undeclared key); nil for none.
    public var field: String?
    /// The field's type; nil for cross-field rules and `unknown-field`.
    public var type: String?
    /// The rule's name: a check's keyword or `as` name, `required`, `unknown-field`.
    public var rule: String
    /// `error` (the entry is invalid) or `warning`.
    public var severity: Severity
    /// The engine's message (a `secure` value is never in it) or the form rule's.
    public var message: String

    /// A violation as the judge reports it.
    public init(field: String?, type: String?, rule: String, severity: Severity, message: String) {
        self.field = field
        self.type = type
        self.rule = rule
        self.severity = severity
        self.message = message
    }
}

/// How one entry of a form was judged, from its violations.
public enum EntryVerdict: String, Sendable, Hashable {
    /// No rule failed.
    case valid
    /// Only warnings.
    case warnings
    /// At least one error.
    case invalid
    /// No error, but the form is not done: a field's value is still `incomplete`, or a
    /// required field has no value yet. Only a live judgement
    /// (``FormValidator/judge(_:stage:)`` with `.live`) answers it; a stored entry never has it.
    case incomplete

    /// The verdict of an entry with these violations.
    public init<S: Sequence>(violations: S) where S.Element == FormViolation {
        var sawWarning = false
        for v in violations {
            if v.severity == .error { self = .invalid; return }
            sawWarning = true
        }
        self = sawWarning ? .warnings : .valid
    }
}
