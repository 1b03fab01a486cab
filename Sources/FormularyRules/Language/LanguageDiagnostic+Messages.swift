/// Typed message builders of the language catalogue: the wording of each problem is
/// written once, here, and the places that find a problem pass only its particulars.
/// "Did you mean" is a fix-it on the misspelled token (`Suggestion.fixIt`) or, when the
/// token's place is not known, a note; hints such as "declare it with …" are notes.
/// What the lexer and the parser find inside a line is in `LanguageDiagnostic+Syntax.swift`.
extension LanguageDiagnostic {
    // MARK: Encoding

    /// A byte that is not part of valid UTF-8.
    package static func invalidUTF8(byte: UInt8) -> DiagnosticMessage {
        let hex = String(byte, radix: 16, uppercase: true)
        return LanguageDiagnostic.invalidUTF8.message(
            "invalid UTF-8: byte 0x\(hex.count < 2 ? "0" + hex : hex) is not part of a valid sequence; plugin files must be UTF-8 text")
    }

    /// A file that starts with a UTF-16 byte-order mark (`encoding`: `UTF-16LE` or `UTF-16BE`).
    package static func utf16File(_ encoding: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidUTF8.message(
            "the file is \(encoding) (it starts with a \(encoding) byte-order mark); plugin files must be UTF-8 text: convert it, e.g. with iconv -f \(encoding) -t UTF-8")
    }

    /// A file with NUL bytes in it: not text (`what` names its format when known,
    /// e.g. "an executable (ELF)"), where the first NUL is.
    package static func binaryFile(what: String?, line: Int, column: Int) -> DiagnosticMessage {
        LanguageDiagnostic.invalidUTF8.message(
            "this is \(what ?? "a binary file"), not a .field or .form file: it holds NUL bytes (U+0000, the first at "
            + "line \(line), column \(column)); plugin files are UTF-8 text")
    }

    /// Records rather than rule script (`kind`: "CSV data", "JSON"; `evidence`: what gave it away).
    package static func recordsFile(kind: String, evidence: String) -> DiagnosticMessage {
        LanguageDiagnostic.missingHeader.message(
            "this looks like \(kind) (\(evidence)), not a .field or .form file (those start with 'field NAME' "
            + "or 'form NAME')")
    }

    // MARK: Grammar

    /// `expected WHAT[ after 'X'], found Y` (`unexpected-token`), or without `found` at the
    /// end of the line (`missing-argument`).
    package static func expected(_ what: String, after: String?, found: String?) -> DiagnosticMessage {
        let context = after.map { " after '\($0)'" } ?? ""
        guard let found else { return LanguageDiagnostic.missingArgument.message("expected \(what)\(context)") }
        return LanguageDiagnostic.unexpectedToken.message("expected \(what)\(context), found \(found)")
    }

    /// A `$parameter` where only a literal may stand.
    package static func parameterNotAllowed(expected what: String, after: String?) -> DiagnosticMessage {
        LanguageDiagnostic.parameterNotAllowed.message(
            "expected \(what)\(after.map { " after '\($0)'" } ?? ""); a parameter reference cannot stand here")
    }

    /// Something after the end of a complete directive.
    package static func expectedEndOfLine(found: String, after: String?) -> DiagnosticMessage {
        LanguageDiagnostic.unexpectedToken.message(
            "unexpected \(found)\(after.map { " after '\($0)'" } ?? ""); expected the end of the line")
    }

    // MARK: Unknown words

    /// `unknown directive 'rnage'`, with a fix-it for a near directive, else `note`
    /// (where the word belongs, or what is expected).
    package static func unknownDirective(_ keyword: String, fixIt: Diagnostic.FixIt?, note: String?) -> DiagnosticMessage {
        LanguageDiagnostic.unknownDirective.message("unknown directive '\(keyword)'", fixIts: fixIt.map { [$0] } ?? [],
                                                    notes: note.map { [Diagnostic.Note($0)] } ?? [])
    }

    /// `unknown WHAT 'word'` for a word of a fixed vocabulary (`choices`) at `range`:
    /// a fix-it to the nearest choice, else a note listing them.
    package static func unknownChoice(_ id: LanguageDiagnostic, what: String, word: String, choices: [String],
                                     at range: SourceLocation) -> DiagnosticMessage {
        let fixIt = Suggestion.fixIt(for: word, in: choices, replacing: range)
        return id.message("unknown \(what) '\(word)'", fixIts: fixIt.map { [$0] } ?? [],
                          notes: fixIt == nil ? [Diagnostic.Note("expected \(Suggestion.list(choices))")] : [])
    }

    /// `unknown autocomplete name 'phone'` at `range`: a fix-it to the autofill field name
    /// meant (the name of a common word such as `phone` → `tel`, or a near spelling), else
    /// a note saying what the names are.
    package static func unknownAutocomplete(_ word: String, at range: SourceLocation) -> DiagnosticMessage {
        let names = Autocomplete.allCases.map(\.rawValue)
        // A common word comes first: `phone` is two edits from `photo`, but means `tel`.
        var fixIt = Autocomplete.commonMistakes[word.lowercased()].map {
            Diagnostic.FixIt(Suggestion.didYouMean($0.rawValue), replacing: range, with: $0.rawValue)
        }
        if fixIt == nil { fixIt = Suggestion.fixIt(for: word, in: names, replacing: range) }
        let note = word == "off" || word == "on"
            ? "'\(word)' is no field name: leave the directive out and a type offers no autofill"
            : "expected an HTML autofill field name, such as 'email', 'tel', 'name', 'username', "
                + "'postal-code' or 'cc-number'"
        return LanguageDiagnostic.unknownAutocomplete.message(
            "unknown autocomplete name '\(word)'", fixIts: fixIt.map { [$0] } ?? [],
            notes: fixIt == nil ? [Diagnostic.Note(note)] : [])
    }

    /// `unknown type 'emial'`, with a fix-it on the name at `range` (its first
    /// `name.count` characters: a reference's location may cover its arguments too); with no
    /// near name, `otherwise` (where to look) as a note.
    package static func unknownType(_ name: String, knownTypes: [String], at range: SourceLocation,
                                   otherwise: String? = nil) -> DiagnosticMessage {
        var range = range
        range.length = max(1, min(range.length, name.count))
        let fixIt = Suggestion.fixIt(for: name, in: knownTypes, replacing: range)
        return LanguageDiagnostic.unknownType.message(
            "unknown type '\(name)'", fixIts: fixIt.map { [$0] } ?? [],
            notes: fixIt == nil ? otherwise.map { [Diagnostic.Note($0)] } ?? [] : [])
    }

    /// `unknown parameter '$mni'` at the reference `range`: a fix-it to a near name of
    /// `known` (keeping the `$`), and `declare` (where to declare it) as a note.
    package static func unknownParameterReference(_ name: String, known: [String], at range: SourceLocation,
                                                 declare: String) -> DiagnosticMessage {
        LanguageDiagnostic.unknownParameter.message(
            "unknown parameter '$\(name)'",
            fixIts: Suggestion.fixIt(for: name, in: known, replacing: range, prefix: "$").map { [$0] } ?? [],
            notes: [Diagnostic.Note(declare)])
    }

    /// `type 'age' has no parameter 'mni'`, with a fix-it on the name at `range`, else a
    /// note saying what the parameters are.
    package static func noSuchArgument(_ name: String, ofType type: String, parameters: [String],
                                      at range: SourceLocation) -> DiagnosticMessage {
        let fixIt = Suggestion.fixIt(for: name, in: parameters, replacing: range)
        let note = parameters.isEmpty ? "it takes no parameters" : "its parameters are \(Suggestion.list(parameters))"
        return LanguageDiagnostic.unknownParameter.message(
            "type '\(type)' has no parameter '\(name)'", fixIts: fixIt.map { [$0] } ?? [],
            notes: fixIt == nil ? [Diagnostic.Note(note)] : [])
    }

    /// `unknown base type 'crad'`: a fix-it when the base name's `range` is known, else a note.
    package static func unknownBase(_ name: String, suggestion: String?, at range: SourceLocation?) -> DiagnosticMessage {
        let fixIts = range.flatMap { range in
            suggestion.map { [Diagnostic.FixIt(Suggestion.didYouMean($0), replacing: range, with: $0)] }
        } ?? []
        let notes = range != nil ? [] : suggestion.map { [Diagnostic.Note(Suggestion.didYouMean($0))] } ?? []
        return LanguageDiagnostic.unknownBase.message("unknown base type '\(name)'", fixIts: fixIts, notes: notes)
    }

    /// A cross-field rule naming a field the form lacks; the suggestion is a note (the
    /// rule's location is its keyword, not the name).
    package static func undeclaredField(_ name: String, rule: String, fields: [String]) -> DiagnosticMessage {
        LanguageDiagnostic.undeclaredField.message(
            "'\(rule)' names '\(name)', which the form does not declare",
            notes: Suggestion.note(for: name, in: fields).map { [$0] } ?? [])
    }

    /// A cross-field rule naming one field twice.
    package static func duplicateRuleField(_ name: String, rule: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateRuleField.message("'\(rule)' names '\(name)' twice; name each field once")
    }

    /// `compare A OP B` where A's type reads values as `a` and B's as `b`.
    package static func incompatibleComparison(_ a: String, _ readingA: ComparisonReading,
                                              _ b: String, _ readingB: ComparisonReading,
                                              rule: String) -> DiagnosticMessage {
        func noun(_ r: ComparisonReading) -> String {
            switch r {
            case .date: "a date (its type has a 'date' check)"
            case .number: "a number (its type has an 'integer' or 'decimal' check)"
            case .text: "text"
            }
        }
        return LanguageDiagnostic.incompatibleComparison.message(
            "'\(rule)' compares '\(a)', read as \(noun(readingA)), with '\(b)', read as \(noun(readingB)); "
                + "compare two dates, two numbers or two texts")
    }

    /// `drop` of a rule the base lacks (`base`: how the base is named, e.g. `base type 'card'`).
    package static func cannotDrop(_ rule: String, base: String, rules: [String]) -> DiagnosticMessage {
        LanguageDiagnostic.unknownRule.message(
            "cannot drop '\(rule)': \(base) has no rule of that name",
            notes: Suggestion.note(for: rule, in: rules).map { [$0] } ?? [])
    }

    /// A `reject` example naming a rule the type lacks.
    package static func notARule(_ rule: String, ofType type: String, rules: [String]) -> DiagnosticMessage {
        let suggestion = Suggestion.note(for: rule, in: rules).map { [$0] } ?? []
        return LanguageDiagnostic.unknownRule.message(
            "'\(rule)' is not a rule of type '\(type)'",
            notes: suggestion + [Diagnostic.Note("its rules are \(rules.isEmpty ? "none" : Suggestion.list(rules))")])
    }

    /// An argument of the wrong kind in a type reference (`takes`: `a number`; `found`:
    /// `the string "x"`).
    package static func argumentKind(_ parameter: String, ofType type: String, takes: String,
                                    found: String) -> DiagnosticMessage {
        LanguageDiagnostic.argumentKind.message("parameter '\(parameter)' of type '\(type)' takes \(takes); found \(found)")
    }

    // MARK: Given twice

    /// A rule modifier (or form field modifier) repeated on one line.
    package static func duplicateModifier(_ word: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateModifier.message("'\(word)' is given twice on this line")
    }

    /// A directive that may be given once, given again; `why` says why (`it may be given once`).
    package static func duplicateDirective(_ keyword: String, earlierLine: Int, why: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateDirective.message("'\(keyword)' is already given on line \(earlierLine); \(why)")
    }

    /// A parameter declared twice in one file.
    package static func duplicateParameter(_ name: String, earlierLine: Int) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateParameter.message("parameter '\(name)' is already declared on line \(earlierLine)")
    }

    /// Two rules of one name in one file.
    package static func duplicateRule(_ name: String, earlierLine: Int) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateRule.message(
            "rule '\(name)' is already defined on line \(earlierLine); name one of them differently with 'as NAME'")
    }

    /// A form field key declared twice.
    package static func duplicateField(_ key: String, earlierLine: Int) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateField.message("field '\(key)' is already declared on line \(earlierLine)")
    }

    /// An argument given twice in one type reference.
    package static func duplicateArgument(_ name: String) -> DiagnosticMessage {
        LanguageDiagnostic.duplicateArgument.message("argument '\(name)' is given twice")
    }

    // MARK: Inheritance

    /// A type on an `extends` cycle (`cycle`: `a extends b extends a`).
    package static func inheritanceCycle(_ cycle: String) -> DiagnosticMessage {
        LanguageDiagnostic.inheritanceCycle.message("inheritance cycle: \(cycle)")
    }

    /// A type whose base is on (`isPart`) or leads into a cycle.
    package static func baseInCycle(_ base: String, cycle: String, isPart: Bool) -> DiagnosticMessage {
        LanguageDiagnostic.inheritanceCycle.message(isPart
            ? "base type '\(base)' is part of an inheritance cycle: \(cycle)"
            : "base type '\(base)' leads into an inheritance cycle: \(cycle)")
    }

    /// A base type that has errors of its own.
    package static func invalidBase(_ base: String) -> DiagnosticMessage {
        LanguageDiagnostic.invalidBase.message("base type '\(base)' has errors; fix them first")
    }

    /// An `extends` chain deeper than allowed, said where it goes too deep.
    package static func extendsTooDeep(start: String, depth: Int, maximum: Int, type: String) -> DiagnosticMessage {
        LanguageDiagnostic.extendsTooDeep.message(
            "'extends' goes too deep: the chain that starts at '\(start)' reaches \(depth) levels here, and at most \(maximum) are allowed; '\(type)' and every type that extends it cannot be used")
    }
}
