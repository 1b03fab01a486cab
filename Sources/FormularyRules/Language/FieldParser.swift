/// Parses the logical lines of a `.field` file into a `FieldTypeDecl`.
///
/// Every line is parsed on its own: an error ends that line only, so a file with several
/// mistakes gets a diagnostic for each.
struct FieldParser {
    static let directives = [
        "label", "help", "placeholder", "keyboard", "secure", "autocapitalize", "autocomplete", "timing",
        "decimal-separator", "param",
        "normalize", "mask", "length", "integer", "decimal", "range", "pattern", "charset",
        "one-of", "date", "checksum", "mask-one-of", "drop", "accept", "reject",
    ]

    /// Words that are not type directives but are easily written in a type: a form's, and
    /// `rule`.
    static let misplaced: [String: String] = [
        "same": "'same' is a cross-field rule of forms (.form files); a type judges one value",
        "require": "'require' is a cross-field rule of forms (.form files); a form field is made "
            + "required with 'field KEY TYPE required'",
        "form": "a .field file declares one type; a form goes in a .form file of its own",
        "rule": "a check starts with its kind ('length', 'pattern', 'range'…), and 'as NAME' names it",
    ]
    static let singletons: Set<String> = [
        "label", "help", "placeholder", "keyboard", "autocapitalize", "autocomplete", "secure", "timing",
        "decimal-separator",
    ]

    let source: SourceLines
    var diagnostics: [Diagnostic] = []
    var name = ""
    var location: SourceLocation
    var base: String?
    var baseLocation: SourceLocation?
    var lines: [FieldTypeDecl.Line] = []
    var references: [FieldTypeDecl.ParameterReference] = []
    var parameters: [String: ParameterValue.Kind] = [:]
    var parameterLines: [String: Int] = [:]
    var ruleLines: [String: Int] = [:]
    var singletonLines: [String: Int] = [:]
    var maskRuleNames: Set<String> = []

    init(source: SourceLines, location: SourceLocation) {
        self.source = source
        self.location = location
    }

    /// `field NAME [extends BASE]`.
    mutating func parseHeader(_ line: LogicalLine) {
        var parser = LineParser(tokens: line.tokens, source: source)
        location = parser.keyword.location
        do throws(Diagnostic) {
            let (typeName, nameToken) = try parser.expectName("a type name")
            name = typeName
            location = nameToken.location
            if parser.cursor.take(word: "extends") != nil {
                let (baseName, baseToken) = try parser.expectName("the name of the base type", after: "extends")
                base = baseName
                baseLocation = baseToken.location
            } else if let token = parser.cursor.peek, let word = token.word,
                      Suggestion.nearest(to: word, in: ["extends"]) != nil {
                throw parser.error(LanguageDiagnostic.unexpectedWord(
                    word, fixIt: Suggestion.fixIt(for: word, in: ["extends"], replacing: token.location)),
                                   at: token.location)
            }
            try parser.expectEnd()
        } catch {
            diagnostics.append(error)
        }
    }

    mutating func parseLine(_ line: LogicalLine) {
        guard let first = line.tokens.first else { return }
        guard let keyword = source.directiveKeyword(
            of: first, header: "field", noun: "type", directives: Self.directives,
            someDirectives: "'label', 'normalize' or 'length'",
            expected: "a directive such as 'label', 'param', 'normalize', 'mask', 'length', 'pattern' or 'accept'",
            misplaced: Self.misplaced, into: &diagnostics) else { return }
        var parser = LineParser(tokens: line.tokens, source: source)
        parser.knownParameters = parameters
        parser.hasBase = base != nil
        do throws(Diagnostic) {
            let directive = try parser.parseFieldDirective(keyword)
            diagnostics += parser.diagnostics
            references += parser.references
            record(directive, keyword: keyword, at: first.location)
        } catch {
            diagnostics += parser.diagnostics
            diagnostics.append(error)
        }
    }

    private mutating func record(_ directive: FieldTypeDecl.Directive, keyword: String,
                                 at location: SourceLocation) {
        if Self.singletons.contains(keyword) {
            if let earlier = singletonLines[keyword] {
                let what = "it may be given once"
                diagnostics.append(source.diagnostic(
                    LanguageDiagnostic.duplicateDirective(keyword, earlierLine: earlier, why: what), at: location))
                return
            }
            singletonLines[keyword] = location.line
        }
        switch directive {
        case .parameter(let parameter):
            if let earlier = parameterLines[parameter.name] {
                diagnostics.append(source.diagnostic(
                    LanguageDiagnostic.duplicateParameter(parameter.name, earlierLine: earlier), at: parameter.location))
                return
            }
            parameterLines[parameter.name] = location.line
            parameters[parameter.name] = parameter.defaultValue.kind
        case .mask(let mask):
            // Several masks may share a rule name (they are one check: the chosen mask's).
            if !maskRuleNames.contains(mask.options.name) {
                guard claimRuleName(mask.options) else { return }
                maskRuleNames.insert(mask.options.name)
            }
        case .check(let check):
            guard claimRuleName(check.options) else { return }
        case .drop(let rule):
            ruleLines[rule] = nil
            maskRuleNames.remove(rule)
        default:
            break
        }
        lines.append(.init(directive: directive, location: location))
    }

    private mutating func claimRuleName(_ options: RuleOptions) -> Bool {
        if let earlier = ruleLines[options.name] {
            diagnostics.append(source.diagnostic(
                LanguageDiagnostic.duplicateRule(options.name, earlierLine: earlier), at: options.location))
            return false
        }
        ruleLines[options.name] = options.location.line
        return true
    }

    func declaration(hasErrors: Bool) -> FieldTypeDecl {
        FieldTypeDecl(name: name, location: location, base: base, baseLocation: baseLocation,
                      lines: lines, parameterReferences: references, source: source,
                      hasErrors: hasErrors)
    }
}
