/// A value that can be typed on the command line: an option's value or a positional.
///
/// ``ParsedArguments/value(_:as:)`` and ``ParsedArguments/positional(_:as:)`` convert with
/// it and, when the text spells no such value, throw a usage error built from ``noun`` and
/// ``expectation``: `--limit 'ten' is not a count; use a whole number, 0 for all`.
protocol ExpressibleByArgument: Sendable {
    /// The value `argument` spells, or nil when it spells none.
    init?(argument: String)
    /// What a value is, with its article, for "'x' is not a count".
    static var noun: String { get }
    /// What to write instead, e.g. "use a whole number, 0 or more".
    static var expectation: String { get }
    /// Every spelling, when the values are a short fixed list (shown in usage lines and
    /// offered by the shells); empty otherwise.
    static var allValueStrings: [String] { get }
    /// The value, or why there is none beyond its form (`"February 2026 has 28 days"`).
    static func converting(_ argument: String) throws(ArgumentValueError) -> Self
}

/// Why a text is no value of a type. `reason` says more than "wrong form" when there is
/// more to say (the day the month does not have); `message` replaces the whole refusal
/// where the usual "X is not a Y; write Z" does not fit ("there is no entry 0: …").
struct ArgumentValueError: Error, Sendable {
    var reason: String?
    var message: String? = nil
}

extension ExpressibleByArgument {
    static var allValueStrings: [String] { [] }

    static func converting(_ argument: String) throws(ArgumentValueError) -> Self {
        guard let value = Self(argument: argument) else { throw ArgumentValueError(reason: nil) }
        return value
    }

    /// The refusal of `argument`, shown as `shown` (`--limit 'ten'`, `'abc'`): what it is
    /// not, why when known, and what to write.
    static func refusal(of shown: String, _ error: ArgumentValueError, expecting: String? = nil) -> String {
        error.message ?? "\(shown) is not \(noun)\(error.reason.map { " (\($0))" } ?? ""); \(expecting ?? expectation)"
    }
}

/// Enums of words (`--by rule|field|type|entry`): each case is spelled as its raw value.
extension ExpressibleByArgument where Self: CaseIterable & RawRepresentable, RawValue == String {
    init?(argument: String) { self.init(rawValue: argument) }

    static var allValueStrings: [String] { allCases.map(\.rawValue) }

    /// "use csv or jsonl", "use one of: rule, field, type, entry".
    static var expectation: String {
        let words = allValueStrings
        return words.count == 2 ? "use \(words[0]) or \(words[1])" : "use one of: " + words.joined(separator: ", ")
    }
}

extension Int: ExpressibleByArgument {
    /// Decimal digits with an optional sign, nothing else (`Int("+5")` is 5; `"1e3"` is no Int).
    init?(argument: String) { self.init(argument, radix: 10) }
    static var noun: String { "a whole number" }
    static var expectation: String { "write decimal digits, e.g. 42" }
}

/// Ids (`StoredID`) are built on it.
extension Int64: ExpressibleByArgument {
    init?(argument: String) { self.init(argument, radix: 10) }
    static var noun: String { "a whole number" }
    static var expectation: String { "write decimal digits, e.g. 42" }
}
