import PCRE2Oracle
import Testing
@testable import FormularyRules

/// A pattern's problem, as a file's reader reports it: at its place inside the regex
/// literal (line, column in characters, caret width), with the language's id, and a fix-it
/// that puts a working pattern in its place.
@Suite struct PatternDiagnosticsTests {
    private func diagnostics(_ text: String) -> [Diagnostic] { parseText(text).diagnostics }

    @Test func problemsPointInsideTheLiteral() throws {
        let unclosed = try #require(diagnostics("field x\npattern /ab(c/").first)
        #expect(unclosed.id == LanguageDiagnostic.invalidRegex.id && unclosed.id.domain == .language)
        #expect((unclosed.location.line, unclosed.location.column, unclosed.location.length) == (2, 12, 1))
        #expect(DiagnosticFormatter().format(unclosed) == """
            t.field:2:12: error: the group opened here is not closed: expected ')'
            pattern /ab(c/
                       ^
            """)
        // `\/` is two characters in the file and one in the pattern.
        let slash = try #require(diagnostics("field x\npattern /a\\/b(c/").first)
        #expect(slash.location.column == 14)
        // Columns count characters: e and a combining accent are one.
        let accent = try #require(diagnostics("field x\npattern /e\u{301}(/").first)
        #expect(accent.location.column == 11)
        // A construct several characters wide gets a caret as wide.
        let backreference = try #require(diagnostics("field x\npattern /(a)\\12/").first)
        #expect(backreference.id == LanguageDiagnostic.unsupportedRegex.id)
        #expect((backreference.location.column, backreference.location.length) == (13, 3))
        // On a continuation line, the literal's own line.
        let continued = try #require(diagnostics("field x\npattern \\\n   /a**/").first)
        #expect((continued.location.line, continued.location.column) == (3, 7))
        // In a mask's condition too.
        let condition = try #require(diagnostics("field x\nmask \"0000\" when /3[47/\nmask \"000\"").first)
        #expect((condition.location.line, condition.location.column) == (2, 20))
        #expect(condition.message == "the character class opened here is not closed: expected ']'")
    }

    @Test func fixItsReplaceTheConstructInTheLine() throws {
        for (line, fixed) in [("pattern /a{b/", "pattern /a\\{b/"), ("pattern /(?>a+)b/", "pattern /(?:a+)b/"),
                              ("pattern /\\p{Lettr}+/", "pattern /\\p{Letter}+/"), ("pattern /a\\Z/i", "pattern /a\\z/i"),
                              ("pattern /\\Qa\\/b\\E/", "pattern /a\\/b/"), ("pattern /x[z-a]/", "pattern /x[a-z]/")] {
            let diagnostic = try #require(diagnostics("field x\n" + line).first, "\(line)")
            let fixIt = try #require(diagnostic.fixIts.first, "\(line): \(diagnostic.text)")
            let applied = try #require(fixIt.applied(to: diagnostic.sourceLine))
            #expect(applied == fixed, "\(line)")
            #expect(diagnostics("field x\n" + applied).isEmpty, "\(applied)")
        }
    }

    /// Lookaheads at the start (and lookbehinds at the end) of a `pattern` become checks of
    /// their own: the fix-it's lines mean, together, what the pattern meant.
    @Test func aLookaheadSplitsIntoChecks() throws {
        let source = "(?=.*[0-9])(?!.*\\s).{8,}"
        let line = "pattern /\(source)/ as password message \"Eight or more, with a digit\""
        let diagnostic = try #require(diagnostics("field pw\n" + line).first)
        #expect(diagnostic.id == LanguageDiagnostic.unsupportedRegex.id)
        #expect(diagnostic.location.column == 10)
        #expect(diagnostic.message.hasPrefix("lookahead '(?=…)' is not supported: write two pattern checks instead"))
        let fixIt = try #require(diagnostic.fixIts.first)
        #expect(fixIt.message == "split it into 3 checks")
        let applied = try #require(fixIt.applied(to: diagnostic.sourceLine))
        #expect(applied == """
            pattern /.*[0-9][\\s\\S]*/ as password-1
            pattern not /.*\\s[\\s\\S]*/ as password-2
            pattern /.{8,}/ as password message "Eight or more, with a digit"
            """)
        let type = try compile(try #require(resolvedField("field pw\n" + applied)))
        let oracle = try PCRE2Pattern(source)
        var rng = SplitMix64(seed: 0x9A55)
        let alphabet: [Unicode.Scalar] = ["a", "B", "1", "9", " ", "\n", "é"]
        for _ in 0..<2_000 {
            let value = rng.scalars(from: alphabet, maxLength: 12)
            guard !value.allSatisfy(\.isWhitespace) else { continue }   // absent: no check runs
            #expect(type.isValid(value) == oracle.matches(value), "\(value.debugDescription)")
        }
        // At the end, a lookbehind; not for `pattern not` or a mask's condition, which cannot split.
        let behind = try #require(diagnostics("field x\npattern /[a-z]+(?<!x)/").first?.fixIts.first)
        #expect(behind.replacement == "pattern not /[\\s\\S]*x/ as pattern-1\npattern /[a-z]+/")
        #expect(diagnostics("field x\npattern not /(?=a)b/").first?.fixIts.isEmpty == true)
        #expect(diagnostics("field x\nmask \"0\" when /(?=a)b/\nmask \"00\"").first?.fixIts.isEmpty == true)
        // In the middle, or before an alternation, a lookahead has no equivalent checks.
        #expect(diagnostics("field x\npattern /a(?=b)b/").first?.fixIts.isEmpty == true)
        #expect(diagnostics("field x\npattern /(?=a)a|b/").first?.fixIts.isEmpty == true)
    }

    /// A pattern error is a syntax error: the line is reported and left out, and the meaning
    /// checks wait until the file parses.
    @Test func patternErrorsAreSyntaxErrors() {
        #expect(ids("field x\npattern /a(/\nlength 5...2") == ["invalid-regex"])
        #expect(ids("field x\npattern /a(/\npattern /b)/ as other") == ["invalid-regex", "invalid-regex"])
        #expect(ids("field x\npattern not\n") == ["missing-argument"])
    }

    /// `pattern-budget` is gone: a self-test naming it gets a warning that says so (the type
    /// still loads); a rule really called that is still a rule.
    @Test func selfTestsNamingPatternBudgetAreWarned() throws {
        let retired = try #require(resolvedField("field x\npattern /a+/\nreject \"aa!\" pattern pattern-budget"))
        let (compiled, found) = FieldCompiler.compile(retired, arguments: [:], today: testToday)
        #expect(compiled != nil)
        #expect(found.map(\.id) == [LanguageDiagnostic.retiredRule.id])
        #expect(found.first?.severity == .warning && found.first?.location.line == 3)
        #expect(found.first?.text.contains("the rule 'pattern-budget' no longer exists") == true)
        let named = try #require(resolvedField("field x\npattern /a+/ as pattern-budget\nreject \"b\" pattern-budget"))
        #expect(FieldCompiler.compile(named, arguments: [:], today: testToday).diagnostics.isEmpty)
        #expect(ids("field x\npattern /a+/\nreject \"b\" pattern-budgte").isEmpty)
        if case .failure(let failure)? = resolver(["field x\npattern /a+/\nreject \"b\" pattern-budgte"]).resolve("x") {
            #expect(failure.diagnostics.map(\.id) == [LanguageDiagnostic.unknownRule.id])
        } else {
            Issue.record("a misspelt rule is still unknown")
        }
    }
}
