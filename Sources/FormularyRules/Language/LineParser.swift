/// Parses the arguments of one directive. Methods throw the first error of the line, which
/// the caller reports before moving on to the next line; errors that do not derail the rest
/// of the line are collected in `diagnostics` instead.
struct LineParser {
    var cursor: TokenCursor
    let source: SourceLines
    /// The directive's keyword, for "expected … after 'label'" messages; nil when parsing
    /// a bare type reference.
    let directive: Token?
    var keyword: Token { directive! }
    /// Parameters declared above this line in the same file, with their kinds.
    var knownParameters: [String: ParameterValue.Kind] = [:]
    /// Undeclared `$name`s may still come from the base type.
    var hasBase = false
    var references: [FieldTypeDecl.ParameterReference] = []
    var diagnostics: [Diagnostic] = []

    init(tokens: [Token], source: SourceLines) {
        self.cursor = TokenCursor(tokens)
        self.source = source
        self.directive = cursor.next()!
    }

    /// A parser for tokens that do not start with a directive keyword.
    init(bareTokens tokens: [Token], source: SourceLines) {
        self.cursor = TokenCursor(tokens)
        self.source = source
        self.directive = nil
    }

    /// A catalogue message at `location` of this line's file.
    func error(_ message: DiagnosticMessage, at location: SourceLocation) -> Diagnostic {
        source.diagnostic(message, at: location)
    }

    /// "expected X after 'kw'" at the end of the line, or "…, found Y" at the token.
    func expected(_ what: String, after: String? = nil) -> Diagnostic {
        let after = after ?? directive?.text
        if let token = cursor.peek {
            if case .parameter = token.kind {
                return source.diagnostic(LanguageDiagnostic.parameterNotAllowed(expected: what, after: after),
                                         at: token.location)
            }
            return source.diagnostic(LanguageDiagnostic.expected(what, after: after, found: token.displayName),
                                     at: token.location)
        }
        return source.diagnostic(LanguageDiagnostic.expected(what, after: after, found: nil), at: cursor.endLocation)
    }

    mutating func expectString(_ what: String = "a string in double quotes", after: String? = nil)
        throws(Diagnostic) -> String {
        guard let token = cursor.peek, case .string(let value) = token.kind else {
            throw expected(what, after: after)
        }
        cursor.advance()
        return value
    }

    /// A word that must follow the name rules.
    mutating func expectName(_ what: String, after: String? = nil) throws(Diagnostic) -> (String, Token) {
        guard let token = cursor.peek, let word = token.word else { throw expected(what, after: after) }
        cursor.advance()
        guard NameRules.isValid(word) else {
            throw error(LanguageDiagnostic.invalidName(word, problem: NameRules.problem(with: word)), at: token.location)
        }
        return (word, token)
    }

    /// A word from a fixed vocabulary, with a "did you mean" when it is not one of them.
    mutating func expectChoice(_ choices: [String], what: String, id: LanguageDiagnostic)
        throws(Diagnostic) -> (String, Token) {
        guard let token = cursor.peek, let word = token.word else {
            throw expected("\(what) (\(Suggestion.list(choices)))")
        }
        cursor.advance()
        guard choices.contains(word) else {
            throw source.diagnostic(LanguageDiagnostic.unknownChoice(id, what: what, word: word, choices: choices,
                                                                     at: token.location),
                                    at: token.location)
        }
        return (word, token)
    }

    func expectEnd() throws(Diagnostic) {
        if let token = cursor.peek {
            throw source.diagnostic(LanguageDiagnostic.expectedEndOfLine(found: token.displayName, after: directive?.text),
                                    at: token.location)
        }
    }

    /// Records `$name` in an argument position accepting `kinds`. An unknown name is an
    /// error right away unless a base type may declare it, in which case the resolver checks.
    mutating func reference(_ name: String, at location: SourceLocation,
                            kinds: [ParameterValue.Kind], anyString: Bool = false) {
        let declared = knownParameters[name] != nil
        references.append(.init(name: name, location: location, allowedKinds: kinds,
                                 declaredEarlier: declared, anyString: anyString))
        if !declared && !hasBase {
            diagnostics.append(source.diagnostic(
                LanguageDiagnostic.unknownParameterReference(name, known: knownParameters.keys.sorted(), at: location,
                                                             declare: "declare it above with 'param \(name) = …'"),
                at: location))
        }
    }

    // MARK: Rule modifiers

    static let modifierWords = ["message", "as", "warning", "final", "if"]

    /// `as NAME`, `message "…"`, `warning`, `final` (with `allowFinal`), `if $NAME = "VALUE"`
    /// (with `allowCondition`: checks only), in any order, each at most once, up to the end
    /// of the line.
    mutating func parseModifiers(defaultName: String, allowFinal: Bool = true, allowCondition: Bool = false)
        throws(Diagnostic) -> RuleOptions {
        var options = RuleOptions(name: defaultName, location: keyword.location)
        var seen: [String: Token] = [:]
        let allowed = Self.modifierWords.filter { ($0 != "final" || allowFinal) && ($0 != "if" || allowCondition) }
        while let token = cursor.peek {
            guard let word = token.word, allowed.contains(word) else {
                let fixIt = token.word.flatMap { Suggestion.fixIt(for: $0, in: allowed, replacing: token.location) }
                let condition = allowCondition ? ", 'if $NAME = \"VALUE\"'" : ""
                let list = allowFinal ? "'as NAME', 'message \"…\"', 'warning'\(condition) or 'final'"
                                      : "'as NAME', 'message \"…\"'\(condition) or 'warning'"
                throw error(LanguageDiagnostic.expectedModifier(found: token.displayName, expected: "a rule modifier: \(list)",
                                                                fixIt: fixIt),
                            at: token.location)
            }
            if seen[word] != nil {
                throw source.diagnostic(LanguageDiagnostic.duplicateModifier(word), at: token.location)
            }
            seen[word] = token
            cursor.advance()
            switch word {
            case "as": options.name = try expectName("a rule name", after: "as").0
            case "message": options.message = try expectString("a message in double quotes", after: "message")
            case "warning": options.severity = .warning
            case "if": options.condition = try parseCondition()
            default: options.finalOnly = true
            }
        }
        return options
    }

    /// `$NAME = "VALUE"` after `if`: NAME a string parameter (declared above or in a base).
    private mutating func parseCondition() throws(Diagnostic) -> RuleCondition {
        guard let token = cursor.peek, case .parameter(let name) = token.kind else {
            throw expected("a string parameter such as $region, then '=' and a value in double quotes", after: "if")
        }
        cursor.advance()
        switch cursor.peek?.kind {
        case .punctuation("=")?, .comparison(.equal)?: cursor.advance()
        default: throw expected("'=' and a value in double quotes", after: "$" + name)
        }
        let value = try expectString("a value in double quotes, such as \"GB\"", after: "=")
        reference(name, at: token.location, kinds: [.string], anyString: true)
        return RuleCondition(parameter: name, value: value, location: token.location)
    }
}
