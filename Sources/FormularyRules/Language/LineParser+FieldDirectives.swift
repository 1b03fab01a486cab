extension LineParser {
    static let normalizeSteps = ["trim", "collapse-spaces", "strip-spaces", "strip", "uppercase",
                                 "lowercase", "capitalize"]

    /// The arguments of every `.field` directive but `field` itself.
    mutating func parseFieldDirective(_ keyword: String) throws(Diagnostic) -> FieldTypeDecl.Directive {
        switch keyword {
        case "label", "help", "placeholder":
            let text = try expectString()
            try expectEnd()
            return keyword == "label" ? .label(text) : keyword == "help" ? .help(text) : .placeholder(text)
        case "keyboard":
            let (word, _) = try expectChoice(Keyboard.allCases.map(\.rawValue), what: "keyboard",
                                             id: .unknownKeyboard)
            try expectEnd()
            return .keyboard(Keyboard(rawValue: word)!)
        case "autocapitalize":
            let (word, _) = try expectChoice(Autocapitalize.allCases.map(\.rawValue),
                                             what: "autocapitalize value", id: .unknownAutocapitalize)
            try expectEnd()
            return .autocapitalize(Autocapitalize(rawValue: word)!)
        case "autocomplete":
            let value = try expectAutocomplete()
            try expectEnd()
            return .autocomplete(value)
        case "secure":
            try expectEnd()
            return .secure
        case "timing":
            let timing = try parseTiming()
            try expectEnd()
            return .timing(timing)
        case "decimal-separator":
            let token = cursor.peek
            let text = try expectString("the separator in double quotes, \",\" or \".\"")
            guard let separator = DecimalSeparator(rawValue: text) else {
                throw error(LanguageDiagnostic.invalidDecimalSeparator(token!.text), at: token!.location)
            }
            try expectEnd()
            return .decimalSeparator(separator)
        case "param":
            return .parameter(try parseParameter())
        case "normalize":
            return .normalize(try parseNormalizeSteps())
        case "mask":
            let token = cursor.peek
            let pattern = try expectString("a mask pattern in double quotes, such as \"0000 0000\"")
            if let problem = Self.maskProblem(pattern) {
                throw error(LanguageDiagnostic.invalidMask(token!.text, problem: problem), at: token!.location)
            }
            var condition: MaskCondition?
            if cursor.take(word: "when") != nil {
                guard let token = cursor.peek, case .regex(let source, let flags) = token.kind else {
                    throw expected("a regex literal over the value's letters and digits, such as /3[47].*/",
                                   after: "when")
                }
                cursor.advance()
                try checkPattern(source, flags, token: token, use: .maskCondition)
                condition = MaskCondition(source: source, flags: flags)
            }
            return .mask(MaskRule(pattern: pattern, options: try parseModifiers(defaultName: "mask"),
                                  condition: condition))
        case "drop":
            let (rule, _) = try expectName("the name of a rule to drop")
            try expectEnd()
            return .drop(rule: rule)
        case "accept", "reject":
            return .example(try parseExample(accept: keyword == "accept"))
        default:
            return .check(try parseCheck(keyword))
        }
    }

    /// The name after `autocomplete`. Not `expectChoice`: its list of fifty-four names is
    /// too long for a note, and common words that are no name (`phone`) get their fix-it.
    private mutating func expectAutocomplete() throws(Diagnostic) -> Autocomplete {
        guard let token = cursor.peek, let word = token.word else {
            throw expected("an HTML autofill field name, such as 'email', 'tel' or 'postal-code'")
        }
        cursor.advance()
        if let value = Autocomplete(rawValue: word) { return value }
        throw source.diagnostic(LanguageDiagnostic.unknownAutocomplete(word, at: token.location), at: token.location)
    }

    /// The word after `timing`: `typing`, `leaving` or `submit`.
    mutating func parseTiming() throws(Diagnostic) -> MessageTiming {
        let (word, _) = try expectChoice(MessageTiming.allCases.map(\.rawValue), what: "timing",
                                         id: .unknownTiming)
        return MessageTiming(rawValue: word)!
    }

    /// `param NAME = DEFAULT`; the default's literal decides the kind.
    private mutating func parseParameter() throws(Diagnostic) -> Parameter {
        let (name, nameToken) = try expectName("a parameter name")
        guard let equals = cursor.peek, equals.kind == .punctuation("=") else {
            throw expected("'=' and a default value", after: name)
        }
        cursor.advance()
        let value: ParameterValue
        switch cursor.peek?.kind {
        case .number(let text):
            value = text.contains(".") ? .decimal(text) : .integer(text)
        case .string(let text):
            value = .string(text)
        default:
            throw expected("a default value: a number such as 10 or 0.5, or a string", after: "=")
        }
        cursor.advance()
        try expectEnd()
        return Parameter(name: name, defaultValue: value, location: nameToken.location)
    }

    private mutating func parseNormalizeSteps() throws(Diagnostic) -> [NormalizeStep] {
        var steps: [NormalizeStep] = []
        while !cursor.atEnd || steps.isEmpty {
            let (word, _) = try expectChoice(Self.normalizeSteps, what: "normalization step",
                                             id: .unknownNormalizeStep)
            switch word {
            case "trim": steps.append(.trim)
            case "collapse-spaces": steps.append(.collapseSpaces)
            case "strip-spaces": steps.append(.stripSpaces)
            case "uppercase": steps.append(.uppercase)
            case "lowercase": steps.append(.lowercase)
            case "capitalize": steps.append(.capitalize)
            default:
                let token = cursor.peek
                let characters = try expectString("the characters to strip in double quotes, such as \" -\"",
                                                  after: "strip")
                if characters.isEmpty {
                    throw error(LanguageDiagnostic.emptyStrip(), at: token!.location)
                }
                if let kept = characters.first(where: { $0.isLetter || $0.isNumber }) {
                    throw error(LanguageDiagnostic.stripRemovesLettersOrDigits(token!.text, kept: kept),
                                at: token!.location)
                }
                steps.append(.strip(characters))
            }
        }
        return steps
    }

    /// Why a mask pattern is unusable, or nil.
    static func maskProblem(_ pattern: String) -> String? {
        var slots = 0
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "0" || character == "A" || character == "*" {
                slots += 1
            }
        }
        if escaped { return "ends with '\\', which must be followed by the character it makes literal" }
        if slots == 0 { return "has no slots: use 0 for a digit, A for a letter, * for either" }
        return nil
    }

    /// `accept [live] "VALUE" [formats "EXPECTED"]`, `reject [live] "VALUE" RULE…`.
    private mutating func parseExample(accept: Bool) throws(Diagnostic) -> Example {
        let live = cursor.take(word: "live") != nil
        let value = try expectString("the example value in double quotes")
        if accept {
            var formats: String?
            if cursor.take(word: "formats") != nil {
                formats = try expectString("the expected formatted value in double quotes", after: "formats")
            }
            try expectEnd()
            return Example(value: value, live: live, expectation: .accept(formats: formats),
                           location: keyword.location)
        }
        var rules: [String] = []
        repeat {
            rules.append(try expectName("the name of each rule the value must fail, e.g. 'length'",
                                        after: rules.isEmpty ? "the value" : rules.last!).0)
        } while !cursor.atEnd
        return Example(value: value, live: live, expectation: .reject(rules: rules),
                       location: keyword.location)
    }
}
