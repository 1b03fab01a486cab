/// A parsed `.form` file: named fields with their types, and cross-field rules.
public struct FormDefinition: Sendable, Hashable {
    /// The form's name, as declared by `form NAME`.
    public var name: String
    /// `label "…"`: the form's caption.
    public var label: String?
    /// The fields in source order.
    public var fields: [FormField]
    /// Cross-field rules in source order, judged after the fields.
    package var rules: [CrossFieldRule]
    /// Where the `form` directive stands.
    public var location: SourceLocation
    /// The locale's translations of the default messages of a form's rules (`form
    /// *.*.ITEM`), by ITEM (``RuleTexts/english``); empty for the English defaults. Put in
    /// by ``LocaleMessages/localize(_:)``; no part of the source or the version.
    package var ruleTexts: [String: String] = [:]

    /// Makes a form definition.
    package init(name: String, label: String? = nil, fields: [FormField] = [],
                rules: [CrossFieldRule] = [], location: SourceLocation) {
        self.name = name
        self.label = label
        self.fields = fields
        self.rules = rules
        self.location = location
    }
}

/// `field KEY TYPE[(PARAMS)] [required [message "…"]] [label "…"] [timing typing|leaving|submit]`.
public struct FormField: Sendable, Hashable {
    /// The entry's field name (a column of an imported file).
    public var key: String
    /// The field's type, with any arguments (`age(min: 18)`).
    public var type: TypeReference
    /// `required`: an absent value fails the form's rule `required`.
    public var required: Bool
    /// `required message "…"`: what the rule `required` says; nil for the default,
    /// `{label} is required` (see ``requiredText``).
    public var requiredMessage: String?
    /// `label "…"`: the field's caption in this form, overriding the type's.
    public var label: String?
    /// When the field's messages are shown, overriding its type's `timing`; nil: the type's.
    public var timing: MessageTiming?
    /// Where the `field` line stands.
    public var location: SourceLocation
    /// Makes a form field.
    package init(key: String, type: TypeReference, required: Bool = false, label: String? = nil,
                timing: MessageTiming? = nil, requiredMessage: String? = nil, location: SourceLocation) {
        self.key = key
        self.type = type
        self.required = required
        self.requiredMessage = requiredMessage
        self.label = label
        self.timing = timing
        self.location = location
    }
}

/// A type named with optional arguments: `age(min: 21, max: 99)`.
public struct TypeReference: Sendable, Hashable, CustomStringConvertible {
    /// One `name: value` argument of a reference.
    package struct Argument: Sendable, Hashable {
        /// The parameter the argument sets.
        package var name: String
        /// The value given.
        package var value: ParameterValue
        /// Where the argument stands.
        package var location: SourceLocation
        /// Makes an argument.
        package init(name: String, value: ParameterValue, location: SourceLocation) {
            self.name = name
            self.value = value
            self.location = location
        }
    }
    /// The referenced type's name.
    public var name: String
    /// The arguments in source order.
    package var arguments: [Argument]
    /// Where the reference stands.
    public var location: SourceLocation
    /// Makes a reference.
    package init(name: String, arguments: [Argument] = [], location: SourceLocation) {
        self.name = name
        self.arguments = arguments
        self.location = location
    }
    /// Canonical spelling, e.g. `age(min: 21, max: 99)`; strings are quoted.
    public var description: String {
        guard !arguments.isEmpty else { return name }
        let args = arguments.map { arg -> String in
            switch arg.value {
            case .string(let s): "\(arg.name): \"\(s)\""
            default: "\(arg.name): \(arg.value.text)"
            }
        }
        return "\(name)(\(args.joined(separator: ", ")))"
    }
}

/// `same A B`, `require X… when Y`, `compare A OP B` and `unique X…`, with the usual rule
/// options.
package struct CrossFieldRule: Sendable, Hashable {
    /// What a cross-field rule requires.
    package enum Kind: Sendable, Hashable {
        /// `same A B`: both fields hold the same canonical value.
        case same(String, String)
        /// `require X… when Y`: the listed fields are present whenever field `Y` is.
        case require([String], when: String)
        /// `compare A OP B`: `A OP B` holds, reading both values as dates, numbers or
        /// canonical text (see ``ComparisonOperator``); skipped when either is absent or invalid.
        case compare(String, ComparisonOperator, String)
        /// `unique X…`: no two entries of a batch validation have the same canonical values
        /// of these fields (absent values never collide); skipped for one record.
        case unique([String])
    }
    /// What the rule requires.
    package var kind: Kind
    /// Default names: `same`, `require`, `compare`, `unique`.
    package var options: RuleOptions
    /// Makes a cross-field rule.
    package init(kind: Kind, options: RuleOptions) {
        self.kind = kind
        self.options = options
    }
}

extension FormField {
    /// The default of ``requiredMessage``.
    package static let defaultRequiredMessage = RuleTexts.englishText("required")!

    /// What the rule `required` says when the field is left empty: ``requiredMessage``, else
    /// `{label} is required`, with `{label}` filled with the field's label (`Full name`), or
    /// its key in quotes (`'full-name'`) when it has none.
    public var requiredText: String {
        MessageTemplate.fill(requiredMessage ?? Self.defaultRequiredMessage, ["label": RuleTexts.name(self)])
    }
}
