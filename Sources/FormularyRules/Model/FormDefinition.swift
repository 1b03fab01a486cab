/// A parsed `.form` file: named fields with their types, and cross-field rules.
public struct FormDefinition: Sendable, Hashable {
    public var name: String
    public var label: String?
    public var fields: [FormField]
    public var rules: [CrossFieldRule]
    public var location: SourceLocation

    public init(name: String, label: String? = nil, fields: [FormField] = [],
                rules: [CrossFieldRule] = [], location: SourceLocation) {
        self.name = name
        self.label = label
        self.fields = fields
        self.rules = rules
        self.location = location
    }
}

/// `field KEY TYPE[(PARAMS)] [required] [label "…"] [timing typing|leaving|submit]`.
public struct FormField: Sendable, Hashable {
    /// The entry's field name (a column of an imported file).
    public var key: String
    public var type: TypeReference
    public var required: Bool
    public var label: String?
    /// When the field's messages are shown, overriding its type's `timing`; nil: the type's.
    public var timing: MessageTiming?
    public var location: SourceLocation
    public init(key: String, type: TypeReference, required: Bool = false, label: String? = nil,
                timing: MessageTiming? = nil, location: SourceLocation) {
        self.key = key
        self.type = type
        self.required = required
        self.label = label
        self.timing = timing
        self.location = location
    }
}

/// A type named with optional arguments: `age(min: 21, max: 99)`.
public struct TypeReference: Sendable, Hashable, CustomStringConvertible {
    public struct Argument: Sendable, Hashable {
        public var name: String
        public var value: ParameterValue
        public var location: SourceLocation
        public init(name: String, value: ParameterValue, location: SourceLocation) {
            self.name = name
            self.value = value
            self.location = location
        }
    }
    public var name: String
    public var arguments: [Argument]
    public var location: SourceLocation
    public init(name: String, arguments: [Argument] = [], location: SourceLocation) {
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

/// `same A B` and `require X… when Y`, with the usual rule options.
public struct CrossFieldRule: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case same(String, String)
        case require([String], when: String)
    }
    public var kind: Kind
    /// Default names: `same`, `require`.
    public var options: RuleOptions
    public init(kind: Kind, options: RuleOptions) {
        self.kind = kind
        self.options = options
    }
}
