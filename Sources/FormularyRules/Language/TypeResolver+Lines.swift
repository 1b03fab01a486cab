/// Applying a declaration's own lines on top of its base, and the checks that need the
/// resolved result (parameter references, `reject` examples naming rules).
extension TypeResolver {
    func apply(_ decl: FieldTypeDecl, to start: FieldTypeDefinition,
               baseParameters: [String: ParameterValue.Kind]) -> (FieldTypeDefinition?, [Diagnostic]) {
        let source = decl.source
        var definition = start
        var diagnostics: [Diagnostic] = []
        var ownExamples: [Example] = []
        let baseText = decl.base.map { "base type '\($0)'" } ?? "this type"
        var ownMasks = false   // the type's first mask line replaces the base's masks

        for line in decl.lines {
            switch line.directive {
            case .label(let text): definition.label = text
            case .help(let text): definition.help = text
            case .placeholder(let text): definition.placeholder = text
            case .keyboard(let keyboard): definition.keyboard = keyboard
            case .autocapitalize(let value): definition.autocapitalize = value
            case .autocomplete(let value): definition.autocomplete = value
            case .secure: definition.secure = true
            case .timing(let timing): definition.timing = timing
            case .decimalSeparator(let separator): definition.decimalSeparator = separator
            case .parameter(let parameter):
                if let index = definition.parameters.firstIndex(where: { $0.name == parameter.name }) {
                    let old = definition.parameters[index].defaultValue.kind
                    if old != parameter.defaultValue.kind {
                        diagnostics.append(source.diagnostic(
                            LanguageDiagnostic.redeclaredParameterKind(parameter.name, was: Self.article(old), in: baseText,
                                                                       now: Self.article(parameter.defaultValue.kind)),
                            at: parameter.location))
                        continue
                    }
                    definition.parameters[index] = parameter
                } else {
                    definition.parameters.append(parameter)
                }
            case .normalize(let steps):
                definition.normalization += steps
            case .mask(let mask):
                if definition.checks.contains(where: { $0.options.name == mask.options.name }) {
                    diagnostics.append(source.diagnostic(
                        LanguageDiagnostic.maskNamedLikeACheck(mask.options.name), at: mask.options.location))
                    continue
                }
                if ownMasks { definition.masks.append(mask) } else { definition.masks = [mask] }
                ownMasks = true
            case .check(let check):
                if let index = definition.checks.firstIndex(where: { $0.options.name == check.options.name }) {
                    definition.checks[index] = check
                } else if definition.masks.contains(where: { $0.checksFill && $0.options.name == check.options.name }) {
                    diagnostics.append(source.diagnostic(
                        LanguageDiagnostic.checkNamedLikeTheMask(check.options.name), at: check.options.location))
                } else {
                    definition.checks.append(check)
                }
            case .drop(let rule):
                // `drop` turns off the fill check of every mask of that name declared so far.
                if definition.masks.contains(where: { $0.checksFill && $0.options.name == rule }) {
                    for k in definition.masks.indices where definition.masks[k].options.name == rule {
                        definition.masks[k].checksFill = false
                    }
                } else if let index = definition.checks.firstIndex(where: { $0.options.name == rule }) {
                    definition.checks.remove(at: index)
                } else {
                    // The line's location is its keyword, so the suggestion is a note.
                    diagnostics.append(source.diagnostic(
                        LanguageDiagnostic.cannotDrop(rule, base: baseText, rules: Self.ruleNames(of: definition)),
                        at: line.location))
                }
            case .example(let example):
                ownExamples.append(example)
            }
        }
        if !ownExamples.isEmpty { definition.examples = ownExamples }

        diagnostics += checkReferences(decl, definition, baseParameters: baseParameters)
        diagnostics += checkExamples(definition, source: source)
        return (definition, diagnostics)
    }

    private func checkReferences(_ decl: FieldTypeDecl, _ definition: FieldTypeDefinition,
                                 baseParameters: [String: ParameterValue.Kind]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for reference in decl.parameterReferences {
            if !reference.declaredEarlier {
                // Without a base the parser has already reported it.
                guard decl.base != nil else { continue }
                guard baseParameters[reference.name] != nil else {
                    let names = Array(baseParameters.keys).sorted()
                    diagnostics.append(decl.source.diagnostic(
                        LanguageDiagnostic.unknownParameterReference(
                            reference.name, known: names, at: reference.location,
                            declare: "declare it with 'param \(reference.name) = …' above its use or in a base type"),
                        at: reference.location))
                    continue
                }
            }
            guard let parameter = definition.parameters.first(where: { $0.name == reference.name }) else { continue }
            let kind = parameter.defaultValue.kind
            if !reference.allowedKinds.contains(kind) {
                diagnostics.append(decl.source.diagnostic(
                    LanguageDiagnostic.referenceKind(reference.name, is: Self.article(kind),
                                                     needs: Self.describe(reference.allowedKinds)),
                    at: reference.location))
            } else if kind == .string, !reference.anyString, DateBound(parsing: parameter.defaultValue.text) == nil {
                diagnostics.append(decl.source.diagnostic(
                    LanguageDiagnostic.referenceNotADateBound(reference.name, default: parameter.defaultValue.text),
                    at: reference.location))
            }
        }
        return diagnostics
    }

    /// `reject` examples must name rules the type has.
    private func checkExamples(_ definition: FieldTypeDefinition, source: SourceLines) -> [Diagnostic] {
        let names = Self.ruleNames(of: definition)
        var diagnostics: [Diagnostic] = []
        for example in definition.examples {
            guard case .reject(let rules) = example.expectation else { continue }
            // `pattern-budget` gets a warning from the compiler (warnings of the resolver's
            // do not outlive a successful resolution).
            for rule in rules where !names.contains(rule) && rule != Self.retiredPatternBudget {
                // The example's location is the whole line, so the suggestion is a note.
                diagnostics.append(source.diagnostic(
                    LanguageDiagnostic.notARule(rule, ofType: definition.name, rules: names), at: example.location))
            }
        }
        return diagnostics
    }

    /// The rule patterns failed as when the engine gave up on a value; it no longer does, and
    /// a self-test naming it gets `retired-rule` (a warning, from the compiler) rather than
    /// `unknown-rule`.
    static let retiredPatternBudget = "pattern-budget"

    /// The names a value can fail: the mask's (while it checks) and each check's.
    static func ruleNames(of definition: FieldTypeDefinition) -> [String] {
        var names: [String] = []
        for mask in definition.masks where mask.checksFill && !names.contains(mask.options.name) {
            names.append(mask.options.name)
        }
        names += definition.checks.map(\.options.name)
        return names
    }

    static func article(_ kind: ParameterValue.Kind) -> String {
        switch kind {
        case .integer: "an integer"
        case .decimal: "a decimal"
        case .string: "a string"
        }
    }

    static func describe(_ kinds: [ParameterValue.Kind]) -> String {
        if kinds == [.integer] { return "an integer" }
        if kinds == [.string] { return "a date (a string parameter)" }
        return "a number"
    }
}
