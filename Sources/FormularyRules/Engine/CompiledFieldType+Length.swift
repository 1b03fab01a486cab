/// The bounds of a type's `length` check, with the unit it counts in, so that an app can
/// show a counter ("12/160") without reading ``FieldTypeDefinition/checks``. Parameters are
/// applied (`length $min...$max` gives the type's values) and bounds are closed:
/// `length 1..<161` has `max` 160.
public struct LengthLimit: Sendable, Hashable {
    /// The least length a value may have; 0 when the check gives no lower bound.
    public var min: Int
    /// The greatest length a value may have, or nil when the check gives none (`length 8...`).
    public var max: Int?
    /// What the check counts: graphemes (characters as a person sees them, the default),
    /// Unicode scalars, UTF-16 code units or UTF-8 bytes.
    public var unit: LengthUnit
    /// The rule a value outside the bounds fails as (`length`, or the line's `as NAME`).
    public var rule: String
    /// Whether breaking the limit makes a value invalid (`error`) or is only a `warning`.
    public var severity: Severity

    /// Makes a limit.
    public init(min: Int, max: Int?, unit: LengthUnit, rule: String, severity: Severity) {
        self.min = min
        self.max = max
        self.unit = unit
        self.rule = rule
        self.severity = severity
    }
}

extension CompiledFieldType {
    /// The type's length limit: its first `length` check with an upper bound, one of error
    /// severity before a warning's (the bound a counter shows), else its first `length`
    /// check; nil when it has none. A mask's size is not reported here: a masked field shows
    /// its slots, not a count.
    public var lengthLimit: LengthLimit? {
        let lengths = checks.compactMap { check -> LengthLimit? in
            guard case let .length(lower, upper, unit) = check.kind else { return nil }
            return LengthLimit(min: lower, max: upper, unit: unit, rule: check.rule, severity: check.severity)
        }
        return lengths.first { $0.max != nil && $0.severity == .error }
            ?? lengths.first { $0.max != nil } ?? lengths.first
    }

    /// The length of `text` as the type's length limit counts it: in its unit (graphemes
    /// without a limit), after normalization and the mask, since that is the value the check
    /// judges (`" ada "` is 3 for a type that trims). An absent value (empty or only white
    /// space) is 0: no check runs on it.
    public func length(of text: String) -> Int {
        let unit = lengthLimit?.unit ?? .graphemes
        var text = text
        return text.withUTF8 { raw in
            if isBlank(raw) { return 0 }
            return Scratch.withCurrent { scratch in
                Length.count(prepared(raw, scratch: scratch).0, unit)
            }
        }
    }
}
