/// Checks a parsed form against the registry of field types.
package enum FormChecker: Sendable {
    /// Every problem of `form` that needs the registry: unknown types (with "did you
    /// mean"), arguments that do not fit the type's parameters, field keys declared twice,
    /// and cross-field rules naming fields the form does not declare.
    ///
    /// - Parameters:
    ///   - source: the form's text, so that diagnostics can show their line.
    ///   - knownTypes: the registry's type names, for suggestions.
    ///   - lookup: the resolved definition of a type name, or nil.
    package static func check(_ form: FormDefinition, source: SourceLines? = nil,
                             knownTypes: [String] = [],
                             lookup: (String) -> FieldTypeDefinition?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func report(_ message: DiagnosticMessage, _ location: SourceLocation) {
            let line = source.flatMap { $0.file == location.file ? $0.text(ofLine: location.line) : nil } ?? ""
            diagnostics.append(Diagnostic(message, at: location, sourceLine: line))
        }

        var declared: [String: Int] = [:]
        for field in form.fields {
            if let earlier = declared[field.key] {
                report(LanguageDiagnostic.duplicateField(field.key, earlierLine: earlier), field.location)
            } else {
                declared[field.key] = field.location.line
            }
            guard let definition = lookup(field.type.name) else {
                report(LanguageDiagnostic.unknownType(field.type.name, knownTypes: knownTypes, at: field.type.location),
                       field.type.location)
                continue
            }
            if case .failure(let failure) = ParameterBinding.bind(definition.parameters,
                                                                  arguments: field.type.arguments,
                                                                  typeName: definition.name, source: source,
                                     choices: definition.parameterChoices,
                                     wordChoices: definition.parameterWordChoices) {
                diagnostics += failure.diagnostics
            }
        }

        let keys = form.fields.map(\.key)
        for rule in form.rules {
            let named: [String] = switch rule.kind {
            case .same(let a, let b): [a, b]
            case .require(let fields, let trigger): fields + [trigger]
            case .compare(let a, _, let b): [a, b]
            case .unique(let fields): fields
            }
            for name in named where declared[name] == nil {
                report(LanguageDiagnostic.undeclaredField(name, rule: rule.options.name, fields: keys),
                       rule.options.location)
            }
            switch rule.kind {
            case .compare(let a, _, let b) where a == b:
                report(LanguageDiagnostic.duplicateRuleField(a, rule: rule.options.name), rule.options.location)
            case .compare(let a, _, let b):
                // A date compared with a number or text would fall back to comparing text:
                // almost surely not what the author meant.
                func reading(_ key: String) -> ComparisonReading? {
                    guard let field = form.fields.first(where: { $0.key == key }),
                          let definition = lookup(field.type.name) else { return nil }
                    return ComparisonReading(checks: definition.checks.map(\.kind))
                }
                if let ra = reading(a), let rb = reading(b), ra != rb {
                    report(LanguageDiagnostic.incompatibleComparison(a, ra, b, rb, rule: rule.options.name),
                           rule.options.location)
                }
            case .unique(let fields):
                var seen: Set<String> = []
                for name in fields where !seen.insert(name).inserted {
                    report(LanguageDiagnostic.duplicateRuleField(name, rule: rule.options.name), rule.options.location)
                }
            default:
                break
            }
        }
        return diagnostics
    }
}
