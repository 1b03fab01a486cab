/// The two moments at which a value is judged.
///
/// - `final`: the value is complete (a stored record, a field that lost focus).
/// - `live`: the value is a prefix of what is still being typed; a check fails only when
///   no completion of the prefix could pass it.
public enum Stage: String, Sendable {
    case final, live
}

/// The outcome of judging one value.
///
/// The final stage only answers `valid` or `invalid`. The live stage answers `valid` when
/// the value already passes the final stage, `invalid` when some live-stage check with
/// error severity fails (no completion can pass), and `incomplete` otherwise.
public enum Verdict: String, Sendable {
    case valid, incomplete, invalid
}

/// One failed check: the rule's name (its keyword, or its `as` name), its severity and the
/// rendered message. A `secure` type's value never appears in `message`.
public struct Violation: Sendable, Hashable {
    /// The rule's name: its keyword (`length`, `luhn`) or its `as` name.
    public var rule: String
    /// Whether the failed rule is an error or a warning.
    public var severity: Severity
    /// The rendered message, ready to show.
    public var message: String

    /// Makes a violation.
    public init(rule: String, severity: Severity, message: String) {
        self.rule = rule
        self.severity = severity
        self.message = message
    }
}

/// One judged value.
public struct FieldResult: Sendable {
    /// The normalized, mask-formatted value; the raw value when the value is absent.
    public var formatted: String
    /// The verdict for the stage the value was judged in.
    public var verdict: Verdict
    /// Errors and warnings, in check order (the mask first). In the live stage these are
    /// the live-stage violations.
    public var violations: [Violation]
    /// The value was empty or only white space: no check ran and the verdict is `valid`.
    /// Whether an absent value is acceptable is the form's decision (`required`).
    public var isAbsent: Bool
    /// The name of the mask that formatted the value, as its line names it with `as NAME`:
    /// for a type whose masks are chosen by the value, which one was — the card brand of a
    /// `credit-card` number (`visa`, `amex`…), for an app to show its logo. Nil when no mask
    /// applies, when the mask has no name of its own (`mask`), and for an absent value. In
    /// the live stage, the mask chosen for the text typed so far.
    public var mask: String?

    /// Makes a result.
    public init(formatted: String, verdict: Verdict, violations: [Violation], isAbsent: Bool, mask: String? = nil) {
        self.formatted = formatted
        self.verdict = verdict
        self.violations = violations
        self.isAbsent = isAbsent
        self.mask = mask
    }

    /// The one message to show: the first violation with error severity in rule order,
    /// else the first warning, else nil.
    public var message: String? {
        (violations.first { $0.severity == .error } ?? violations.first)?.message
    }
}

/// The result of running one `accept` or `reject` example of a type.
public struct SelfTestOutcome: Sendable, Hashable {
    /// The example that was run.
    public var example: Example
    /// Whether the example held.
    public var passed: Bool
    /// Why the example failed, in plain words; nil when it passed.
    public var reason: String?

    /// Makes an outcome.
    public init(example: Example, passed: Bool, reason: String?) {
        self.example = example
        self.passed = passed
        self.reason = reason
    }
}
