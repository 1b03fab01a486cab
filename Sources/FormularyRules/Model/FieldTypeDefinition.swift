/// A field type after parsing and after `extends` has been resolved: everything the
/// engine needs to compile it, with parameter references still symbolic.
///
/// Built by the language layer (`FieldParser` + `TypeResolver`); compiled by
/// `FieldCompiler` once parameter values are known.
public struct FieldTypeDefinition: Sendable, Hashable {
    /// The type's name (`credit-card`), as declared by `field NAME`.
    public var name: String
    /// The chain of bases, nearest first (`visa` extends `credit-card` → `["credit-card"]`).
    public var bases: [String]
    /// `label "…"`: the caption an app shows next to the field.
    public var label: String?
    /// `help "…"`: a longer hint an app may show under the field.
    public var help: String?
    /// `placeholder "…"`: the text shown while the field is empty.
    public var placeholder: String?
    /// `keyboard KIND`: the on-screen keyboard an app should offer.
    public var keyboard: Keyboard?
    /// `autocapitalize MODE`: how an app's keyboard capitalizes.
    public var autocapitalize: Autocapitalize?
    /// `autocomplete NAME`: what the value is, for the platform's autofill (an HTML
    /// autofill field name); nil when the type does not say.
    public var autocomplete: Autocomplete?
    /// The value is a secret: never printed, stored only as the user's data.
    public var secure: Bool
    /// `timing typing|leaving|submit`: when an app shows the type's messages; nil when the
    /// type does not say (``MessageTiming/leaving``). No effect on verdicts.
    public var timing: MessageTiming?
    /// `decimal-separator ","`: the character between the whole and the fractional digits
    /// that the type's `decimal` and `range` checks (and `compare` rules) read; nil when the
    /// type does not say (``DecimalSeparator/point``).
    public var decimalSeparator: DecimalSeparator?
    /// `param NAME = DEFAULT` declarations, in source order (bases' first).
    package var parameters: [Parameter]
    /// `normalize` steps, applied in order before any check.
    package var normalization: [NormalizeStep]
    /// The input masks in source order (a base's, unless the type declares its own). Each
    /// but the last usually has a `when` condition: the first whose condition matches the
    /// value's slot characters formats it, an unconditional one always matches.
    package var masks: [MaskRule]
    /// The last mask (the default one, and for most types the only one); setting it
    /// replaces every mask with this one.
    package var mask: MaskRule? {
        get { masks.last }
        set { masks = newValue.map { [$0] } ?? [] }
    }
    /// The checks in rule order: bases' checks first, then the type's own.
    package var checks: [CheckRule]
    /// `accept` and `reject` examples, run by `formulary types test` and the self-tests.
    public var examples: [Example]
    /// Where the `field` directive stands.
    public var location: SourceLocation

    /// Makes a definition; every part but the name and location defaults to "not declared".
    package init(name: String, bases: [String] = [], label: String? = nil, help: String? = nil,
                placeholder: String? = nil, keyboard: Keyboard? = nil,
                autocapitalize: Autocapitalize? = nil, autocomplete: Autocomplete? = nil,
                secure: Bool = false,
                timing: MessageTiming? = nil, decimalSeparator: DecimalSeparator? = nil, parameters: [Parameter] = [], normalization: [NormalizeStep] = [],
                mask: MaskRule? = nil, masks: [MaskRule] = [], checks: [CheckRule] = [],
                examples: [Example] = [], location: SourceLocation) {
        self.name = name
        self.bases = bases
        self.label = label
        self.help = help
        self.placeholder = placeholder
        self.keyboard = keyboard
        self.autocapitalize = autocapitalize
        self.autocomplete = autocomplete
        self.secure = secure
        self.timing = timing
        self.decimalSeparator = decimalSeparator
        self.parameters = parameters
        self.normalization = normalization
        self.masks = masks + (mask.map { [$0] } ?? [])
        self.checks = checks
        self.examples = examples
        self.location = location
    }
}

/// The on-screen keyboard a type asks for (`keyboard number-pad`); the raw value is the
/// spelling in the language.
public enum Keyboard: String, Sendable, Hashable, CaseIterable, Codable {
    case `default`, numberPad = "number-pad", decimalPad = "decimal-pad", email, phone, url
}

/// How an app's keyboard should capitalize (`autocapitalize words`); the raw value is the
/// spelling in the language.
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

/// The character a type's numbers are written with between the whole and the fractional
/// digits (`decimal-separator ","`); the raw value is that character. The language's own
/// numbers (range bounds, parameter values) are always written with a point.
public enum DecimalSeparator: String, Sendable, Hashable, CaseIterable, Codable {
    case point = ".", comma = ","

    /// The separator's UTF-8 byte, which the checks compare values' bytes with.
    package var byte: UInt8 { self == .point ? UInt8(ascii: ".") : UInt8(ascii: ",") }

    /// A number of the language (`10.5`) as this separator writes it (`10,5`), for messages.
    package func spell(_ number: String) -> String {
        self == .point ? number : String(number.map { $0 == "." ? "," : $0 })
    }
}

/// `param NAME = DEFAULT`; the kind is that of the default.
package struct Parameter: Sendable, Hashable {
    /// The parameter's name, used as `$name` in rules and `{name}` in messages.
    package var name: String
    /// The value used when a reference such as `age(min: 18)` does not give one.
    package var defaultValue: ParameterValue
    /// Where the `param` directive stands.
    package var location: SourceLocation
    /// Makes a parameter declaration.
    package init(name: String, defaultValue: ParameterValue, location: SourceLocation) {
        self.name = name
        self.defaultValue = defaultValue
        self.location = location
    }
}

/// A parameter's value. Numbers keep their source text: they are compared exactly.
package enum ParameterValue: Sendable, Hashable {
    case integer(String)   // e.g. "-12"
    case decimal(String)   // e.g. "0.5"
    case string(String)

    /// The kind of a value; a reference must give a parameter a value of its default's kind.
    package enum Kind: String, Sendable { case integer, decimal, string }
    /// This value's kind.
    package var kind: Kind {
        switch self {
        case .integer: .integer
        case .decimal: .decimal
        case .string: .string
        }
    }
    /// The text substituted for `{name}` in messages.
    package var text: String {
        switch self {
        case .integer(let s), .decimal(let s), .string(let s): s
        }
    }
}

/// An argument that is either a literal or a `$name` parameter reference.
package enum Arg<Value: Sendable & Hashable>: Sendable, Hashable {
    /// A literal written in the rule.
    case value(Value)
    /// `$name`: the parameter's value, with where the reference stands.
    case parameter(String, SourceLocation)
}

/// A range in Swift's spelling, with optional exclusive lower bound (`0<...100`).
/// A bare value `16` is `16...16`. Missing bounds are unbounded.
package struct RangeSpec<Bound: Sendable & Hashable>: Sendable, Hashable {
    /// The lower bound, or nil when the range has none (`...100`).
    package var lower: Arg<Bound>?
    /// Whether the lower bound itself is excluded (`0<...100`).
    package var lowerExclusive: Bool
    /// The upper bound, or nil when the range has none (`18...`).
    package var upper: Arg<Bound>?
    /// Whether the upper bound itself is included (`...` rather than `..<`).
    package var upperInclusive: Bool
    /// Makes a range from its bounds.
    package init(lower: Arg<Bound>?, lowerExclusive: Bool = false,
                upper: Arg<Bound>?, upperInclusive: Bool) {
        self.lower = lower
        self.lowerExclusive = lowerExclusive
        self.upper = upper
        self.upperInclusive = upperInclusive
    }
}

/// A decimal number as written in the source (`-12`, `0.5`), compared exactly.
package struct DecimalLiteral: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written.
    package var text: String
    /// Wraps the number's source text; it is not checked here (the parser does that).
    package init(_ text: String) { self.text = text }
    /// The number exactly as written.
    package var description: String { text }
}

/// An endpoint of a date range.
package enum DateBound: Sendable, Hashable {
    /// A calendar date written in the rule (`2000-01-01`).
    case absolute(year: Int, month: Int, day: Int)
    /// `today`, `today+12y`, `today-30d`, `today+6m`.
    case today(offset: Int, unit: DateOffsetUnit)
}

/// The unit of a `today±N` offset; the raw value is its letter in the language.
package enum DateOffsetUnit: String, Sendable, Hashable { case years = "y", months = "m", days = "d" }

/// One step of `normalize`, applied to the value before any check and before the mask.
package enum NormalizeStep: Sendable, Hashable {
    case trim, collapseSpaces, stripSpaces, strip(String), uppercase, lowercase, capitalize
}

/// How much a failed rule counts: an `error` makes the value invalid, a `warning` does not.
/// The same type serves diagnostics, field results and stored run results.
public enum Severity: String, Sendable, Hashable, Codable { case error, warning }

/// Modifiers every rule line may carry: `as NAME`, `message "…"`, `warning`, `final`.
package struct RuleOptions: Sendable, Hashable {
    /// The rule's name: its keyword unless renamed with `as NAME`.
    package var name: String
    /// `warning` on the rule line makes it a warning; errors are the default.
    package var severity: Severity
    /// The message template (`{value}`, `{min}`, `{max}`, `{param}`), or nil for the default.
    package var message: String?
    /// Runs only in the final stage.
    package var finalOnly: Bool
    /// `if $NAME = "VALUE"`: the check applies only when a string parameter has that value
    /// (nil: always). Checks only.
    package var condition: RuleCondition?
    /// Where the rule line stands.
    package var location: SourceLocation
    /// Makes the options of a rule line.
    package init(name: String, severity: Severity = .error, message: String? = nil,
                finalOnly: Bool = false, condition: RuleCondition? = nil, location: SourceLocation) {
        self.name = name
        self.severity = severity
        self.message = message
        self.finalOnly = finalOnly
        self.condition = condition
        self.location = location
    }
}

/// `mask "PATTERN"`: formats the value and checks it fills the mask (rule `mask`).
package struct MaskRule: Sendable, Hashable {
    /// The mask's pattern as written (`0000 0000 0000 0000`).
    package var pattern: String
    /// The rule's name, severity and message.
    package var options: RuleOptions
    /// Whether the mask is also a check (rule `options.name`, `mask` by default). `drop mask`
    /// turns this off: the mask then only formats, as in `plugins/iban.field`, whose lengths
    /// vary by country.
    package var checksFill: Bool
    /// `when /RE/flags`: the mask applies only to values whose slot characters match (nil:
    /// always).
    package var condition: MaskCondition?
    /// Makes a mask rule.
    package init(pattern: String, options: RuleOptions, checksFill: Bool = true, condition: MaskCondition? = nil) {
        self.pattern = pattern
        self.options = options
        self.checksFill = checksFill
        self.condition = condition
    }

    /// The pattern with each number group (`{01-12}`) written as its digit slots (`00`):
    /// what formatting and the mask check see, for runtimes that only format (the export).
    package var slotPattern: String {
        let scalars = Array(pattern.unicodeScalars)
        var out = String.UnicodeScalarView()
        var k = 0, escaped = false
        while k < scalars.count {
            let s = scalars[k]
            if !escaped, s == "{", let (group, length) = NumberGroup.parse(scalars, at: k, item: 0) {
                out.append(contentsOf: String(repeating: "0", count: group.width).unicodeScalars)
                k += length
                continue
            }
            escaped = !escaped && s == "\\"
            out.append(s)
            k += 1
        }
        return String(out)
    }
}

/// The `when /RE/flags` of a mask: a regex over the value's slot characters (its letters
/// and digits, every other character left out), matched as a whole in the final stage and as
/// a possible prefix in the live stage.
package struct MaskCondition: Sendable, Hashable {
    /// The regex as written between the slashes.
    package var source: String
    /// The flags after the closing slash.
    package var flags: RegexFlags
    /// Makes a condition.
    package init(source: String, flags: RegexFlags = []) {
        self.source = source
        self.flags = flags
    }
}

/// What `length` counts: grapheme clusters (the default), Unicode scalars, UTF-16 code
/// units or UTF-8 bytes.
public enum LengthUnit: String, Sendable, Hashable, CaseIterable {
    case graphemes, scalars, utf16, bytes
}

/// The algorithm of a `checksum` check; the raw value is its name in the language and the
/// rule name it fails as. Each reads the digits of the normalized, formatted value (and
/// `mod97` its letters, `isbn10`/`isbn` a final `X`).
package enum ChecksumAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// Luhn (ISO/IEC 7812), as for payment cards.
    case luhn
    /// ISO 7064 MOD 97-10, as for IBAN.
    case mod97
    /// GS1 mod 10: GTIN-8, UPC-A/GTIN-12, EAN-13, GTIN-14 (weights 3, 1 from the right).
    case gtin
    /// ISBN-10: ten characters weighted 10…1, mod 11, a final `X` standing for 10.
    case isbn10
    /// ISBN-10 (as `isbn10`) or ISBN-13 (13 digits starting 978 or 979, as `gtin`).
    case isbn
    /// Verhoeff's dihedral-group check digit.
    case verhoeff
}

/// A class of characters that `charset` allows; `literal` lists characters one by one.
package enum CharsetClass: Sendable, Hashable {
    case digits, letters, marks, spaces, punctuation, alphanumerics
    case literal(String)
}

/// Flags after a pattern's closing slash: `i` (case-insensitive) and `x` (extended).
package struct RegexFlags: OptionSet, Sendable, Hashable {
    /// The flags as bits.
    package let rawValue: UInt8
    /// Makes flags from their bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `i`: letters match regardless of case.
    package static let caseInsensitive = RegexFlags(rawValue: 1)
    /// `x`: white space and `#` comments in the pattern are ignored.
    package static let extended = RegexFlags(rawValue: 2)
}

/// What a check line tests, with its arguments as parsed.
package enum CheckKind: Sendable, Hashable {
    case length(RangeSpec<Int>, LengthUnit)
    case integer
    case decimal(places: Arg<Int>?)
    case range(RangeSpec<DecimalLiteral>)
    /// `pattern /RE/flags`, the value must match as a whole; `pattern not /RE/flags`
    /// (`negated`), it must not.
    case pattern(source: String, flags: RegexFlags, negated: Bool = false)
    case charset([CharsetClass])
    case oneOf([String], ignoreCase: Bool)
    case date(format: String, range: RangeSpec<DateBound>?)
    case checksum(ChecksumAlgorithm)
    /// `mask-one-of "visa" "mastercard"` or `mask-one-of $brands` (a string parameter
    /// holding names separated by spaces): the mask chosen for the value must be one of the
    /// named ones (by their `as NAME`).
    case maskOneOf(Arg<[String]>)

    /// The keyword that introduces the check, which is also its default rule name.
    package var keyword: String {
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
        case .maskOneOf: "mask-one-of"
        }
    }
}

/// One check line of a type: what it tests and its rule options.
package struct CheckRule: Sendable, Hashable {
    /// What the check tests.
    package var kind: CheckKind
    /// The rule's name, severity, message and stage.
    package var options: RuleOptions
    /// Makes a check rule.
    package init(kind: CheckKind, options: RuleOptions) {
        self.kind = kind
        self.options = options
    }
}

/// `accept [live] "VALUE" [formats "EXPECTED"]` and `reject [live] "VALUE" RULE…`.
public struct Example: Sendable, Hashable {
    /// What an example expects: acceptance (optionally with the formatted text) or rejection by
    /// the named rules.
    public enum Expectation: Sendable, Hashable {
        case accept(formats: String?)
        case reject(rules: [String])
    }
    /// The example's input value.
    public var value: String
    /// `live`: judged in the live stage, as while typing, instead of the final one.
    public var live: Bool
    /// What the example expects.
    public var expectation: Expectation
    /// Where the example line stands.
    public var location: SourceLocation
    /// Makes an example.
    package init(value: String, live: Bool, expectation: Expectation, location: SourceLocation) {
        self.value = value
        self.live = live
        self.expectation = expectation
        self.location = location
    }
}
