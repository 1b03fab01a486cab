/// A moment in a field's life at which an app may show its message.
public enum MessageMoment: String, Sendable, Hashable, CaseIterable {
    /// The user is typing in the field.
    case typing
    /// The field has lost focus.
    case leaving
    /// The form is being submitted.
    case submitting
}

extension FieldEditor {
    /// The message to show at `moment`, or nil, as the field's ``timing`` says:
    ///
    /// | timing | `.typing` | `.leaving` | `.submitting` |
    /// |---|---|---|---|
    /// | `typing` | live message | final message | final message |
    /// | `leaving` (default) | nil | final message | final message |
    /// | `submit` | nil | nil | final message |
    ///
    /// The live message is ``result``'s (what no completion can fix, e.g. a letter in a
    /// card number); the final message judges the text as complete (e.g. "Card number is
    /// incomplete"). Both are ``FieldResult/message``: the first error, else the first
    /// warning. An absent (empty) value has none: whether it may be absent is the form's
    /// decision. An ``externalError`` is shown at every moment, whatever the timing: the
    /// app set it to be seen.
    public func visibleMessage(after moment: MessageMoment) -> String? {
        if let externalError { return externalError }
        switch (timing, moment) {
        case (.typing, .typing):
            return result.message
        case (_, .typing), (.submit, .leaving):
            return nil
        case (_, .leaving), (_, .submitting):
            return type.validate(text, stage: .final).message
        }
    }
}

extension FieldEditor {
    /// `result` with the external error in front: a violation of error severity, so the
    /// verdict is `invalid` (the app's server refused this very value).
    func withExternalError(_ result: FieldResult) -> FieldResult {
        guard let externalError else { return result }
        var result = result
        result.violations.insert(Violation(rule: Self.externalRule, severity: .error, message: externalError), at: 0)
        result.verdict = .invalid
        return result
    }

    /// The text's length and the greatest length the type allows, for a counter: the count
    /// is ``CompiledFieldType/length(of:)`` (in the type's unit, after normalization), the
    /// limit the `max` of ``CompiledFieldType/lengthLimit``. Nil when the type's length has
    /// no upper bound.
    public var counter: (count: Int, limit: Int)? {
        guard let limit = type.lengthLimit?.max else { return nil }
        return (type.length(of: text), limit)
    }

    /// ``counter`` as a caption: `"12/160"`; nil without an upper bound.
    public var counterText: String? {
        counter.map { "\($0.count)/\($0.limit)" }
    }
}
