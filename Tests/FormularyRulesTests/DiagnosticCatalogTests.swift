import Testing
@testable import FormularyRules

/// The language, compiler and registry catalogues: every id is listed once, has its domain and
/// default severity, and every typed builder renders.
@Suite struct DiagnosticCatalogTests {
    /// One message of each compiler builder, covering every compiler id.
    static let compilerSamples: [DiagnosticMessage] = CompilerDiagnostic.RangeKind.allCases.map(CompilerDiagnostic.emptyRange)
        + CompilerDiagnostic.ParameterNeed.allCases.map { CompilerDiagnostic.parameterKind("n", needs: $0, found: "x") }
        + [
            CompilerDiagnostic.negativePlaces(-1),
            CompilerDiagnostic.emptyOneOf(),
            CompilerDiagnostic.maskLengthConflict(mask: "00000", filled: "5", unit: "graphemes"),
            CompilerDiagnostic.acceptUnformattable(shownValue: "\"1234a\"", mask: "00000"),
            CompilerDiagnostic.unreachableMask(pattern: "0000", reason: "an earlier mask without 'when' takes every value"),
            CompilerDiagnostic.maskConditionUnmatchable(mask: "0000", reason: "it needs at least 5 letters or digits, and the mask holds 4"),
            CompilerDiagnostic.noSuchParameter("mni", ofType: "age"),
            CompilerDiagnostic.unknownParameterReference("mni"),
            CompilerDiagnostic.argumentKind(parameter: "min", ofType: "age", expected: "an integer", found: "a string"),
            CompilerDiagnostic.invalidNumber("1.2.3"),
            CompilerDiagnostic.invalidDate("2023-02-30"),
            CompilerDiagnostic.maskEndsInBackslash("00\\"),
            CompilerDiagnostic.invalidDateFormat("MM", reason: "'MM' needs 'yyyy' or 'yy'"),
        ]

    @Test func everyCompilerIDHasABuilderThatRenders() {
        let built = Set(Self.compilerSamples.map(\.id))
        let missing = CompilerDiagnostic.allCases.filter { !built.contains($0.id) }
        #expect(missing.isEmpty, "no builder sample for \(missing)")
        let location = SourceLocation(file: "t.field", line: 3, column: 1, length: 6)
        for message in Self.compilerSamples {
            #expect(!message.text.isEmpty && !message.text.contains("did you mean"))
            let diagnostic = Diagnostic(message, at: location, sourceLine: "length 5...2")
            #expect(diagnostic.id == message.id && diagnostic.severity == message.severity)
            #expect(DiagnosticFormatter().header(diagnostic)
                    == "t.field:3:1: \(message.severity.rawValue): \(message.text)")
        }
    }

    /// The texts the compiler printed before the catalogue existed (the CLI, the goldens and
    /// the documentation show them).
    @Test func compilerBuildersKeepTheirWording() {
        #expect(CompilerDiagnostic.emptyRange(.length).text == "the length range is empty: no value can satisfy it")
        #expect(CompilerDiagnostic.maskLengthConflict(mask: "00000", filled: "5", unit: "graphemes").text
                == "the mask \"00000\" fills to 5 graphemes, which this length rule never allows")
        #expect(CompilerDiagnostic.acceptUnformattable(shownValue: "\"1234a\"", mask: "00000").text
                == "the accept example \"1234a\" does not fill the mask \"00000\"")
        #expect(CompilerDiagnostic.parameterKind("n", needs: .number, found: "a").text
                == "parameter '$n' must be a number here, not \"a\"")
        #expect(CompilerDiagnostic.unreachableMask(pattern: "0", reason: "r").severity == .warning)
        #expect(CompilerDiagnostic.emptyOneOf().severity == .error)
    }

    @Test func compilerReportsItsOwnDomainAndTheLanguagesForArguments() {
        #expect(CompilerDiagnostic.emptyRange(.number).id.domain == .compiler)
        #expect(CompilerDiagnostic.noSuchParameter("x", ofType: "t").id == LanguageDiagnostic.unknownParameter.id)
        #expect(CompilerDiagnostic.invalidDate("2023-02-30").id.domain == .language)
    }

    @Test func everyLanguageIDRendersWithItsDomainAndSeverity() {
        for kind in LanguageDiagnostic.allCases {
            #expect(kind.id.domain == .language && kind.id.rawValue == kind.rawValue)
            #expect(kind.id.description == kind.rawValue)
            let diagnostic = Diagnostic(kind.message("m"), at: SourceLocation(file: "f", line: 1, column: 1),
                                        sourceLine: "")
            #expect(diagnostic.severity == kind.defaultSeverity)
            #expect(DiagnosticFormatter().format(diagnostic) == "f:1:1: \(kind.defaultSeverity.rawValue): m")
            // Only a retired rule is a warning: every other language problem makes a file unusable.
            #expect((kind.defaultSeverity == .warning) == (kind == .retiredRule))
        }
    }

    /// The language catalogue's typed builders: their ids and the wording printed before
    /// suggestions moved out of messages.
    @Test func languageBuildersRenderWithTheirIDs() {
        let at = SourceLocation(file: "t.field", line: 2, column: 1, length: 5)
        let samples: [(DiagnosticMessage, LanguageDiagnostic, String)] = [
            (LanguageDiagnostic.invalidUTF8(byte: 0x9), .invalidUTF8,
             "invalid UTF-8: byte 0x09 is not part of a valid sequence; plugin files must be UTF-8 text"),
            (LanguageDiagnostic.expected("a number", after: "length", found: nil), .missingArgument,
             "expected a number after 'length'"),
            (LanguageDiagnostic.expected("a number", after: nil, found: "'x'"), .unexpectedToken, "expected a number, found 'x'"),
            (LanguageDiagnostic.parameterNotAllowed(expected: "a regex", after: "pattern"), .parameterNotAllowed,
             "expected a regex after 'pattern'; a parameter reference cannot stand here"),
            (LanguageDiagnostic.expectedEndOfLine(found: "'x'", after: "secure"), .unexpectedToken,
             "unexpected 'x' after 'secure'; expected the end of the line"),
            (LanguageDiagnostic.unknownChoice(.unknownKeyboard, what: "keyboard", word: "emial", choices: ["email", "url"], at: at),
             .unknownKeyboard, "unknown keyboard 'emial'; did you mean 'email'?"),
            (LanguageDiagnostic.unknownChoice(.unknownChecksum, what: "checksum algorithm", word: "zz", choices: ["luhn"], at: at),
             .unknownChecksum, "unknown checksum algorithm 'zz'; expected 'luhn'"),
            (LanguageDiagnostic.noSuchArgument("a", ofType: "x", parameters: [], at: at), .unknownParameter,
             "type 'x' has no parameter 'a'; it takes no parameters"),
            (LanguageDiagnostic.unknownBase("crad", suggestion: "card", at: nil), .unknownBase,
             "unknown base type 'crad'; did you mean 'card'?"),
            (LanguageDiagnostic.notARule("lunh", ofType: "card", rules: ["luhn"]), .unknownRule,
             "'lunh' is not a rule of type 'card'; did you mean 'luhn'?; its rules are 'luhn'"),
            (LanguageDiagnostic.duplicateRule("length", earlierLine: 3), .duplicateRule,
             "rule 'length' is already defined on line 3; name one of them differently with 'as NAME'"),
            (LanguageDiagnostic.baseInCycle("a", cycle: "a extends b extends a", isPart: true), .inheritanceCycle,
             "base type 'a' is part of an inheritance cycle: a extends b extends a"),
            (LanguageDiagnostic.extendsTooDeep(start: "d0", depth: 65, maximum: 64, type: "d65"), .extendsTooDeep,
             "'extends' goes too deep: the chain that starts at 'd0' reaches 65 levels here, and at most 64 are allowed; 'd65' and every type that extends it cannot be used"),
        ]
        for (message, id, text) in samples {
            #expect(message.id == id.id, "\(text)")
            #expect(Diagnostic(message, at: at, sourceLine: "").text == text)
            #expect(!message.text.contains("did you mean"), "a suggestion inside the message: \(message.text)")
        }
        // A suggestion with a known range is a fix-it; without one, a note.
        #expect(LanguageDiagnostic.unknownBase("crad", suggestion: "card", at: at).fixIts.map(\.replacement) == ["card"])
        #expect(LanguageDiagnostic.unknownBase("crad", suggestion: "card", at: nil).fixIts.isEmpty)
    }

    @Test func idStringsAreUniqueAndKebabCase() {
        let all = LanguageDiagnostic.allCases.map(\.rawValue) + CompilerDiagnostic.allCases.map(\.rawValue)
            + RegistryDiagnostic.allCases.map(\.rawValue) + MessagesDiagnostic.allCases.map(\.rawValue)
        #expect(Set(all).count == all.count, "an id string is listed twice")
        for id in all {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } && !id.hasPrefix("-"), "\(id)")
        }
    }

    /// A builder may choose another severity than the id's default.
    @Test func severityCanBeChosen() {
        #expect(LanguageDiagnostic.unknownRule.message("m", severity: .warning).severity == .warning)
        #expect(LanguageDiagnostic.unknownRule.message("m").severity == .error)
    }
}
