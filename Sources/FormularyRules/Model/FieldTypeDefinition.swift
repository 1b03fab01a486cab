/// A field type after parsing and after `extends` has been resolved: everything the
/// engine needs to compile it, with parameter references still symbolic.
///
/// Built by the language layer (`FieldParser` + `TypeResolver`); compiled by
/// `FieldCompiler` once parameter values are known.
public struct FieldTypeDefinition: Sendable, Hashable {
    public var name: String
    /// The chain of bases, nearest first (`visa` extends `credit-card` → `["credit-card"]`).
    public var bases: [String]
    public var label: String?
    public var help: String?
    public var placeholder: String?
    public var keyboard: Keyboard?
    public var autocapitalize: Autocapitalize?
    /// The value is a secret: never printed, stored only as the user's data.
    public var secure: Bool
    /// `timing typing|leaving|submit`: when an app shows the type's messages; nil when the
    /// type does not say (``MessageTiming/leaving``). No effect on verdicts.
    public var timing: MessageTiming?
    public var parameters: [Parameter]
    public var normalization: [NormalizeStep]
    public var mask: MaskRule?
    public var checks: [CheckRule]
    public var examples: [Example]
    /// Where the `field` directive stands.
    public var location: SourceLocation

    public init(name: String, bases: [String] = [], label: String? = nil, help: String? = nil,
                placeholder: String? = nil, keyboard: Keyboard? = nil,
                autocapitalize: Autocapitalize? = nil, secure: Bool = false,
                timing: MessageTiming? = nil, parameters: [Parameter] = [], normalization: [NormalizeStep] = [],
                mask: MaskRule? = nil, checks: [CheckRule] = [], examples: [Example] = [],
                location: SourceLocation) {
        self.name = name
        self.bases = bases
        self.label = label
        self.help = help
        self.placeholder = placeholder
        self.keyboard = keyboard
        self.autocapitalize = autocapitalize
        self.secure = secure
        self.timing = timing
        self.parameters = parameters
        self.normalization = normalization
        self.mask = mask
        self.checks = checks
        self.examples = examples
        self.location = location
    }
}

public enum Keyboard: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`, numberPad = "number-pad", decimalPad = "decimal-pad", email, phone, url
}

public enum Autocapitalize: String, Sendable, Hashable, CaseIterable, Codable {
    case never, words, sentences, all
}

/// When an app shows a field's messages (`timing` in a type or a form field). It never
/// changes a verdict; ``FieldEditor/visibleMessage(after:)`` applies it.
public enum MessageTiming: String, Sendable, Hashable, CaseIterable, Codable {
    /// While the user types: the live verdict's message, keystroke by keystroke.
    case typing
    /// When the field loses focus (the default): the final verdict's message.
    case leaving
    /// Only when the form is submitted.
    case submit
}

/// `param NAME = DEFAULT`; the kind is that of the default.
public struct Parameter: Sendable, Hashable {
    public var name: String
    public var defaultValue: ParameterValue
    public var location: SourceLocation
    public init(name: String, defaultValue: ParameterValue, location: SourceLocation) {
        self.name = name
        self.defaultValue = defaultValue
        self.location = location
    }
}

/// A parameter's value. Numbers keep their source text: they are compared exactly.
public enum ParameterValue: Sendable, Hashable {
    case integer(String)   // e.g. "-12"
    case decimal(String)   // e.g. "0.5"
    case string(String)

    public enum Kind: String, Sendable { case integer, decimal, string }
    public var kind: Kind {
        switch self {
        case .integer: .integer
        case .decimal: .decimal
        case .string: .string
        }
    }
    /// The text substituted for `{name}` in messages.
    public var text: String {
        switch self {
        case .integer(let s), .decimal(let s), .string(let s): s
        }
    }
}

/// An argument that is either a literal or a `$name` parameter reference.
public enum Arg<Value: Sendable & Hashable>: Sendable, Hashable {
    case value(Value)
    case parameter(String, SourceLocation)
}

/// A range in Swift's spelling, with optional exclusive lower bound (`0<...100`).
/// A bare value `16` is `16...16`. Missing bounds are unbounded.
public struct RangeSpec<Bound: Sendable & Hashable>: Sendable, Hashable {
    public var lower: Arg<Bound>?
    public var lowerExclusive: Bool
    public var upper: Arg<Bound>?
    public var upperInclusive: Bool
    public init(lower: Arg<Bound>?, lowerExclusive: Bool = false,
                upper: Arg<Bound>?, upperInclusive: Bool) {
        self.lower = lower
        self.lowerExclusive = lowerExclusive
        self.upper = upper
        self.upperInclusive = upperInclusive
    }
}

/// A decimal number as written in the source (`-12`, `0.5`), compared exactly.
public struct DecimalLiteral: Sendable, Hashable, CustomStringConvertible {
    public var text: String
    public init(_ text: String) { self.text = text }
    public var description: String { text }
}

/// An endpoint of a date range.
public enum DateBound: Sendable, Hashable {
    case absolute(year: Int, month: Int, day: Int)
    /// `today`, `today+12y`, `today-30d`, `today+6m`.
    case today(offset: Int, unit: DateOffsetUnit)
}

public enum DateOffsetUnit: String, Sendable, Hashable { case years = "y", months = "m", days = "d" }

public enum NormalizeStep: Sendable, Hashable {
    case trim, collapseSpaces, stripSpaces, strip(String), uppercase, lowercase, capitalize
}

public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

/// Modifiers every rule line may carry: `as NAME`, `message "…"`, `warning`, `final`.
public struct RuleOptions: Sendable, Hashable {
    /// The rule's name: its keyword unless renamed with `as NAME`.
    public var name: String
    public var severity: Severity
    /// The message template (`{value}`, `{min}`, `{max}`, `{param}`), or nil for the default.
    public var message: String?
    /// Runs only in the final stage.
    public var finalOnly: Bool
    public var location: SourceLocation
    public init(name: String, severity: Severity = .error, message: String? = nil,
                finalOnly: Bool = false, location: SourceLocation) {
        self.name = name
        self.severity = severity
        self.message = message
        self.finalOnly = finalOnly
        self.location = location
    }
}

/// `mask "PATTERN"`: formats the value and checks it fills the mask (rule `mask`).
public struct MaskRule: Sendable, Hashable {
    public var pattern: String
    public var options: RuleOptions
    /// Whether the mask is also a check (rule `options.name`, `mask` by default). `drop mask`
    /// turns this off: the mask then only formats, as in `plugins/iban.field`, whose lengths
    /// vary by country.
    public var checksFill: Bool
    public init(pattern: String, options: RuleOptions, checksFill: Bool = true) {
        self.pattern = pattern
        self.options = options
        self.checksFill = checksFill
    }
}

public enum LengthUnit: String, Sendable, Hashable, CaseIterable {
    case graphemes, scalars, utf16, bytes
}

public enum ChecksumAlgorithm: String, Sendable, Hashable, CaseIterable { case luhn, mod97 }

public enum CharsetClass: Sendable, Hashable {
    case digits, letters, marks, spaces, punctuation, alphanumerics
    case literal(String)
}

public struct RegexFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let caseInsensitive = RegexFlags(rawValue: 1)
    public static let extended = RegexFlags(rawValue: 2)
}

public enum CheckKind: Sendable, Hashable {
    case length(RangeSpec<Int>, LengthUnit)
    case integer
    case decimal(places: Arg<Int>?)
    case range(RangeSpec<DecimalLiteral>)
    case pattern(source: String, flags: RegexFlags)
    case charset([CharsetClass])
    case oneOf([String], ignoreCase: Bool)
    case date(format: String, range: RangeSpec<DateBound>?)
    case checksum(ChecksumAlgorithm)

    /// The keyword that introduces the check, which is also its default rule name.
    public var keyword: String {
        switch self {
        case .length: "length"
        case .integer: "integer"
        case .decimal: "decimal"
        case .range: "range"
        case .pattern: "pattern"
        case .charset: "charset"
        case .oneOf: "one-of"
        case .date: "date"
        case .checksum(let a): a.rawValue   // `checksum luhn` fails as rule `luhn`
        }
    }
}

public struct CheckRule: Sendable, Hashable {
    public var kind: CheckKind
    public var options: RuleOptions
    public init(kind: CheckKind, options: RuleOptions) {
        self.kind = kind
        self.options = options
    }
}

/// `accept [live] "VALUE" [formats "EXPECTED"]` and `reject [live] "VALUE" RULE…`.
public struct Example: Sendable, Hashable {
    public enum Expectation: Sendable, Hashable {
        case accept(formats: String?)
        case reject(rules: [String])
    }
    public var value: String
    public var live: Bool
    public var expectation: Expectation
    public var location: SourceLocation
    public init(value: String, live: Bool, expectation: Expectation, location: SourceLocation) {
        self.value = value
        self.live = live
        self.expectation = expectation
        self.location = location
    }
}
