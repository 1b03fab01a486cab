/// A parsed `.field` file before `extends` is resolved: the header and the directives in
/// the order they were written, which is what inheritance needs (a derived type's lines
/// are applied one by one on top of its base).
package struct FieldTypeDecl: Sendable, Hashable {
    /// One directive of a `.field` file, as written (before inheritance is applied).
    package enum Directive: Sendable, Hashable {
        case label(String)
        case help(String)
        case placeholder(String)
        case keyboard(Keyboard)
        case autocapitalize(Autocapitalize)
        case autocomplete(Autocomplete)
        case secure
        case timing(MessageTiming)
        case decimalSeparator(DecimalSeparator)
        case parameter(Parameter)
        case normalize([NormalizeStep])
        case mask(MaskRule)
        case check(CheckRule)
        case drop(rule: String)
        case example(Example)
    }

    /// One directive and where it stands (its keyword).
    package struct Line: Sendable, Hashable {
        /// The directive.
        package var directive: Directive
        /// Where the directive's keyword stands.
        package var location: SourceLocation
        /// Makes a line.
        package init(directive: Directive, location: SourceLocation) {
            self.directive = directive
            self.location = location
        }
    }

    /// A `$name` used as an argument, remembered so that the resolver can check it against
    /// the parameters the type ends up with (its own and its bases').
    package struct ParameterReference: Sendable, Hashable {
        /// The parameter's name, without the `$`.
        package var name: String
        /// Where the reference stands.
        package var location: SourceLocation
        /// The kinds the argument position accepts (`length` bounds: integer only).
        package var allowedKinds: [ParameterValue.Kind]
        /// Declared by a `param` line above the reference in the same file.
        package var declaredEarlier: Bool
        /// In an `if $NAME = "VALUE"` or a `mask-one-of`: any string will do (elsewhere a
        /// string parameter stands for a date bound).
        package var anyString: Bool = false
    }

    /// The declared type's name (`field NAME`).
    package var name: String
    /// Where the `field` header stands.
    package var location: SourceLocation
    /// `extends BASE`, with the location of BASE for diagnostics.
    package var base: String?
    /// Where the `extends` name stands, for diagnostics about the base.
    package var baseLocation: SourceLocation?
    /// The directives in source order.
    package var lines: [Line]
    /// Every `$name` argument of the file, checked once the parameters are known.
    package var parameterReferences: [ParameterReference]
    /// The file's text, so that later diagnostics (from the resolver) can show their line.
    package var source: SourceLines
    /// The file had errors; a type extending it reports `invalid-base` instead of
    /// inheriting half a definition.
    package var hasErrors: Bool

    /// Makes a declaration.
    package init(name: String, location: SourceLocation, base: String? = nil,
                baseLocation: SourceLocation? = nil, lines: [Line] = [],
                parameterReferences: [ParameterReference] = [], source: SourceLines,
                hasErrors: Bool = false) {
        self.name = name
        self.location = location
        self.base = base
        self.baseLocation = baseLocation
        self.lines = lines
        self.parameterReferences = parameterReferences
        self.source = source
        self.hasErrors = hasErrors
    }
}
