/// Parses the logical lines of a `.form` file into a `FormDefinition`.
///
/// Only syntax is checked here; whether the types exist, the arguments fit and the
/// cross-field rules name declared fields is `FormChecker`'s job, since it needs the registry.
struct FormParser {
    static let directives = ["label", "field", "same", "require", "compare", "unique"]

    /// Words that are not form directives but are easily written in a form: a type's
    /// directives, and `rule` (which `forms show` prints before each rule's name).
    static let misplaced: [String: String] = {
        var hints: [String: String] = [:]
        for word in FieldParser.directives where !directives.contains(word) {
            hints[word] = "'\(word)' is a directive of field types (.field files); a form gives each field "
                + "a type instead: 'field KEY TYPE', e.g. 'field card credit-card'"
        }
        hints["rule"] = "a cross-field rule starts with its kind: 'same A B', 'require A… when B', "
            + "'compare A < B' or 'unique A…' "
            + "(name it with 'as NAME')"
        return hints
    }()

    let source: SourceLines
    var diagnostics: [Diagnostic] = []
    var form: FormDefinition
    var labelLine: Int?

    init(source: SourceLines, location: SourceLocation) {
        self.source = source
        self.form = FormDefinition(name: "", location: location)
    }

    /// `form NAME`.
    mutating func parseHeader(_ line: LogicalLine) {
        var parser = LineParser(tokens: line.tokens, source: source)
        form.location = parser.keyword.location
        do throws(Diagnostic) {
            let (name, token) = try parser.expectName("a form name")
            form.name = name
            form.location = token.location
            try parser.expectEnd()
        } catch {
            diagnostics.append(error)
        }
    }

    mutating func parseLine(_ line: LogicalLine) {
        guard let first = line.tokens.first else { return }
        guard let keyword = source.directiveKeyword(
            of: first, header: "form", noun: "form", directives: Self.directives,
            someDirectives: "'field' or 'same'", expected: "'label', 'field', 'same', 'require', 'compare' or 'unique'",
            misplaced: Self.misplaced, into: &diagnostics) else { return }
        var parser = LineParser(tokens: line.tokens, source: source)
        do throws(Diagnostic) {
            switch keyword {
            case "label":
                let label = try parser.expectString()
                try parser.expectEnd()
                if let earlier = labelLine {
                    throw parser.error(LanguageDiagnostic.duplicateDirective("label", earlierLine: earlier,
                                                                             why: "it may be given once"),
                                       at: first.location)
                }
                labelLine = first.location.line
                form.label = label
            case "field":
                form.fields.append(try parser.parseFormField())
            case "same":
                let (a, _) = try parser.expectName("the first of two fields to compare")
                let (b, _) = try parser.expectName("the second field to compare", after: a)
                let options = try parser.parseModifiers(defaultName: "same", allowFinal: false)
                form.rules.append(CrossFieldRule(kind: .same(a, b), options: options))
            case "compare":
                form.rules.append(try parser.parseCompare())
            case "unique":
                form.rules.append(try parser.parseUnique())
            default:
                var required: [String] = []
                while let token = parser.cursor.peek, token.word != "when" {
                    required.append(try parser.expectName("the fields to require, then 'when FIELD'").0)
                }
                if required.isEmpty { throw parser.expected("the fields to require, then 'when FIELD'") }
                guard parser.cursor.take(word: "when") != nil else {
                    throw parser.expected("'when' and the field whose presence requires them",
                                          after: required.last!)
                }
                let (trigger, _) = try parser.expectName("the field whose presence requires them",
                                                         after: "when")
                let options = try parser.parseModifiers(defaultName: "require", allowFinal: false)
                form.rules.append(CrossFieldRule(kind: .require(required, when: trigger), options: options))
            }
        } catch {
            diagnostics.append(error)
        }
    }
}

extension LineParser {
    /// `field KEY TYPE[(PARAMS)] [required [message "…"]] [label "…"] [timing typing|leaving|submit]`.
    mutating func parseFormField() throws(Diagnostic) -> FormField {
        let (key, keyToken) = try expectName("a field key (the entry's column name)")
        let type = try parseTypeReference()
        var field = FormField(key: key, type: type, location: keyToken.location)
        var seen: Set<String> = []
        let modifiers = ["required", "label", "timing"]
        while let token = cursor.peek {
            guard let word = token.word, modifiers.contains(word) else {
                let fixIt = token.word.flatMap {
                    Suggestion.fixIt(for: $0, in: modifiers, replacing: token.location)
                }
                throw error(LanguageDiagnostic.expectedModifier(found: token.displayName,
                                                                expected: "'required', 'label \"…\"' or 'timing typing|leaving|submit'",
                                                                fixIt: fixIt),
                            at: token.location)
            }
            guard seen.insert(word).inserted else {
                throw source.diagnostic(LanguageDiagnostic.duplicateModifier(word), at: token.location)
            }
            cursor.advance()
            if word == "required" {
                field.required = true
                if cursor.peek?.word == "message" {
                    cursor.advance()
                    field.requiredMessage = try expectString(after: "message")
                }
            } else if word == "timing" {
                field.timing = try parseTiming()
            } else {
                field.label = try expectString(after: "label")
            }
        }
        return field
    }
}
