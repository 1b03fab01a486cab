import Testing
@testable import FormularyRules

/// The language and compiler catalogues: every id is listed once, has its domain and
/// default severity, and every typed builder renders.
@Suite struct DiagnosticCatalogTests {
    /// One message of each compiler builder, covering every compiler id.
    static let compilerSamples: [DiagnosticMessage] = CompilerDiagnostic.RangeKind.allCases.map(CompilerDiagnostic.emptyRange)
        + CompilerDiagnostic.ParameterNeed.allCases.map { CompilerDiagnostic.parameterKind("n", needs: $0, found: "x") }
        + [
            CompilerDiagnostic.negativePlaces(-1),
            CompilerDiagnostic.invalidRegex("missing closing parenthesis", offset: 3),
            CompilerDiagnostic.regexBacktracking(),
            CompilerDiagnostic.emptyOneOf(),
            CompilerDiagnostic.maskLengthConflict(mask: "00000", filled: "5", unit: "graphemes"),
            CompilerDiagnostic.acceptUnformattable(shownValue: "\"1234a\"", mask: "00000"),
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
        #expect(CompilerDiagnostic.regexBacktracking().severity == .warning)
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
            #expect(DiagnosticFormatter().format(diagnostic) == "f:1:1: error: m")
        }
    }

    @Test func idStringsAreUniqueAndKebabCase() {
        let all = LanguageDiagnostic.allCases.map(\.rawValue) + CompilerDiagnostic.allCases.map(\.rawValue)
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
