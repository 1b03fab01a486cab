/// Compiles field-type definitions into `CompiledFieldType`s, checking the type itself.
///
/// Load-time checks (diagnostic ids in parentheses), reported at the offending rule:
/// - arguments naming no parameter, references to unknown parameters (`unknown-parameter`),
///   argument values of the wrong kind (`argument-kind`), parameters used where another
///   kind is needed (`parameter-kind`); an integer value is accepted for a decimal;
/// - contradictions: empty ranges such as `length 5...2` or `range 10...1` (`empty-range`),
///   a mask whose filled length cannot satisfy a `length` rule (`mask-length-conflict`),
///   negative `places` (`negative-places`), `one-of` without options (`empty-one-of`);
/// - a mask ending in a lone `\` (`invalid-mask`), bad numbers (`invalid-number`), dates
///   (`invalid-date`) and date formats (`invalid-date-format`);
/// - an `accept` example (not `live`) that its own mask cannot format to a filled mask
///   (`accept-unformattable`);
/// - patterns that do not compile (`invalid-regex`, `unsupported-regex`: the parser reports a
///   file's, located in the literal; the compiler those of definitions built in code, and a
///   pattern whose NFA would be too big to keep).
package enum FieldCompiler: Sendable {
    /// Load-time checks and compilation. The diagnostics include warnings; `compiled` is
    /// nil when any of them is an error.
    ///
    /// - Parameters:
    ///   - arguments: values chosen for some or all parameters; the others take their
    ///     defaults.
    ///   - today: the date that `today±N` range endpoints and two-digit years resolve
    ///     against.
    package static func compile(_ definition: FieldTypeDefinition, arguments: [String: ParameterValue],
                               today: CivilDate) -> (compiled: CompiledFieldType?, diagnostics: [Diagnostic]) {
        var compilation = FieldCompilation(definition: definition, today: today)
        compilation.bind(arguments)
        let compiled = compilation.build()
        let failed = compilation.diagnostics.contains { $0.severity == .error }
        return (failed ? nil : compiled, compilation.diagnostics)
    }
}

/// The state of one compilation: bound parameter values and the diagnostics so far.
struct FieldCompilation {
    let definition: FieldTypeDefinition
    let today: CivilDate
    var values: [String: ParameterValue] = [:]
    var diagnostics: [Diagnostic] = []

    init(definition: FieldTypeDefinition, today: CivilDate) {
        self.definition = definition
        self.today = today
    }

    /// Records a catalogue message at `location`; the registry fills in the source line.
    mutating func report(_ message: DiagnosticMessage, at location: SourceLocation) {
        diagnostics.append(Diagnostic(message, at: location, sourceLine: ""))
    }

    mutating func bind(_ arguments: [String: ParameterValue]) {
        for parameter in definition.parameters { values[parameter.name] = parameter.defaultValue }
        for name in arguments.keys.sorted() {
            let value = arguments[name]!
            guard let parameter = definition.parameters.first(where: { $0.name == name }) else {
                report(CompilerDiagnostic.noSuchParameter(name, ofType: definition.name), at: definition.location)
                continue
            }
            let expected = parameter.defaultValue.kind
            switch (expected, value) {
            case (.string, .string(let text)):
                if let choices = definition.parameterChoices[name], !choices.contains(text) {
                    report(CompilerDiagnostic.argumentKind(parameter: name, ofType: definition.name,
                                                           expected: ParameterBinding.describe(choices: choices),
                                                           found: "\"\(text)\""),
                           at: definition.location)
                }
                if let names = definition.parameterWordChoices[name], let problem = ParameterBinding.wordProblem(text, names) {
                    report(CompilerDiagnostic.argumentKind(parameter: name, ofType: definition.name,
                                                           expected: "names of its masks separated by spaces",
                                                           found: problem),
                           at: definition.location)
                }
                values[name] = value
            case (.integer, .integer), (.decimal, .decimal):
                values[name] = value
            case (.decimal, .integer(let text)):
                values[name] = .decimal(text)
            default:
                report(CompilerDiagnostic.argumentKind(parameter: name, ofType: definition.name,
                                                       expected: article(expected), found: article(value.kind)),
                       at: definition.location)
            }
        }
    }

    private func article(_ kind: ParameterValue.Kind) -> String {
        kind == .integer ? "an integer" : "a \(kind.rawValue)"
    }

    /// The value of `$name`, or nil (reported) when unknown.
    private mutating func lookup(_ name: String, at location: SourceLocation) -> ParameterValue? {
        guard let value = values[name] else {
            report(CompilerDiagnostic.unknownParameterReference(name), at: location)
            return nil
        }
        return value
    }

    mutating func integer(_ arg: Arg<Int>) -> Int? {
        switch arg {
        case .value(let v): return v
        case .parameter(let name, let location):
            guard let value = lookup(name, at: location) else { return nil }
            guard case .integer(let text) = value, let v = Int(text) else {
                report(CompilerDiagnostic.parameterKind(name, needs: .integer, found: value.text), at: location)
                return nil
            }
            return v
        }
    }

    mutating func decimal(_ arg: Arg<DecimalLiteral>, at ruleLocation: SourceLocation) -> DecimalConstant? {
        let text: String
        var location = ruleLocation
        switch arg {
        case .value(let literal): text = literal.text
        case .parameter(let name, let where_):
            location = where_
            guard let value = lookup(name, at: where_) else { return nil }
            switch value {
            case .integer(let t), .decimal(let t): text = t
            case .string(let t):
                report(CompilerDiagnostic.parameterKind(name, needs: .number, found: t), at: where_)
                return nil
            }
        }
        guard let constant = DecimalConstant(text) else {
            report(CompilerDiagnostic.invalidNumber(text), at: location)
            return nil
        }
        return constant
    }

    /// A date bound resolved against `today`.
    mutating func date(_ arg: Arg<DateBound>, at ruleLocation: SourceLocation) -> CivilDate? {
        var bound: DateBound
        var location = ruleLocation
        switch arg {
        case .value(let b): bound = b
        case .parameter(let name, let where_):
            location = where_
            guard let value = lookup(name, at: where_) else { return nil }
            guard case .string(let text) = value, let parsed = Self.parseDateBound(text) else {
                report(CompilerDiagnostic.parameterKind(name, needs: .date, found: value.text), at: where_)
                return nil
            }
            bound = parsed
        }
        switch bound {
        case .absolute(let y, let m, let d):
            guard (1...12).contains(m), d >= 1, d <= CivilDate.daysIn(month: m, year: y) else {
                report(CompilerDiagnostic.invalidDate("\(CivilDate(year: y, month: m, day: d))"), at: location)
                return nil
            }
            return CivilDate(year: y, month: m, day: d)
        case .today(let offset, let unit):
            return Calendar.offset(today, by: offset, unit)
        }
    }

    /// `YYYY-MM-DD`, `today`, `today+12y`, `today-30d`, `today+6m`.
    static func parseDateBound(_ text: String) -> DateBound? {
        if let d = CivilDate(iso: text) { return .absolute(year: d.year, month: d.month, day: d.day) }
        guard text.hasPrefix("today") else { return nil }
        let rest = text.dropFirst(5)
        if rest.isEmpty { return .today(offset: 0, unit: .days) }
        guard let sign = rest.first, sign == "+" || sign == "-", let unitChar = rest.last,
              let unit = DateOffsetUnit(rawValue: String(unitChar)),
              let n = Int(rest.dropFirst().dropLast()), rest.dropFirst().dropLast().allSatisfy(\.isASCII)
        else { return nil }
        return .today(offset: sign == "-" ? -n : n, unit: unit)
    }

    /// Texts for `{NAME}` of every parameter: a decimal written with the type's separator,
    /// as the user writes the type's numbers.
    var parameterTexts: [String: String] {
        values.mapValues { value in
            if case .decimal(let text) = value { separator.spell(text) } else { value.text }
        }
    }

    /// The type's `decimal-separator`.
    var separator: DecimalSeparator { definition.decimalSeparator ?? .point }
}
