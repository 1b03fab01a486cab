import Testing
@testable import FormularyRules

/// Patterns in everyday use, through whole types: whole-value matching, flags, Unicode, the
/// live stage, long values, and the load errors of definitions built in code. The dialect
/// itself is `PatternParserTests`', the automata `PatternAutomatonTests`'.
@Suite struct PatternTests {
    private func pattern(_ source: String, _ flags: RegexFlags = [], negated: Bool = false) throws -> CompiledFieldType {
        try compileType(check(.pattern(source: source, flags: flags, negated: negated)))
    }

    @Test func matchesTheWholeValue() throws {
        let type = try pattern("[a-z]+")
        #expect(type.isValid("abc"))
        #expect(!type.isValid("abc1"))
        #expect(!type.isValid("1abc"))
        // No trailing-newline loophole, even with an explicit `$`.
        let dollar = try pattern("^[a-z]+$")
        #expect(!dollar.isValid("abc\n"))
        #expect(dollar.isValid("abc"))
    }

    @Test func flags() throws {
        let caseless = try pattern("abc", .caseInsensitive)
        #expect(caseless.isValid("ABC"))
        #expect(caseless.isValid("aBc"))
        #expect(!caseless.isValid("abd"))
        let extended = try pattern("a b  # comment\n c", .extended)
        #expect(extended.isValid("abc"))
        #expect(!extended.isValid("a b c"))
        let inline = try pattern("(?i)abc")
        #expect(inline.isValid("AbC"))
    }

    @Test func unicodeAwareButDigitsAreASCII() throws {
        let word = try pattern("\\w+")
        #expect(word.isValid("Ærøskøbing"))
        let digits = try pattern("\\d{3}-\\d{4}")
        #expect(digits.isValid("555-1234"))
        #expect(!digits.isValid("٥٥٥-١٢٣٤"))
        #expect(!digits.isValid("５５５-1234"))
        let inClass = try pattern("[\\d.]+")
        #expect(inClass.isValid("1.5"))
        #expect(!inClass.isValid("١.٥"))
        let notDigit = try pattern("\\D+")
        #expect(notDigit.isValid("abc٣"))
        #expect(!notDigit.isValid("ab3"))
        let notDigitClass = try pattern("[^\\D]+")
        #expect(notDigitClass.isValid("123"))
        #expect(!notDigitClass.isValid("1٣"))
        let escaped = try pattern("\\\\d")   // a backslash then d
        #expect(escaped.isValid("\\d"))
        let letters = try pattern("\\p{Letter}+ \\p{Lu}")
        #expect(letters.isValid("ßüé Ä"))
        #expect(!letters.isValid("ßüé ä"))
        let greek = try pattern("\\p{Greek}+")
        #expect(greek.isValid("λόγος"))
        #expect(!greek.isValid("logos"))
    }

    @Test func livePartialMatching() throws {
        let email = try pattern("[^@\\s]+@[^@\\s]+\\.[a-z]{2,}")
        #expect(email.live("john@exa") == .incomplete)
        #expect(email.live("john@example.com") == .valid)
        #expect(email.live("john@@") == .invalid)
        #expect(email.failed("john@@", .live) == ["pattern"])
        let phone = try pattern("\\d{3}-\\d{4}")
        #expect(phone.live("555-12") == .incomplete)
        #expect(phone.live("55a") == .invalid)
        let nonEmpty = try pattern("a+")
        #expect(nonEmpty.failed("", .live).isEmpty)
    }

    /// A value longer than anything the pattern accepts has no completion.
    @Test func liveRejectsValuesLongerThanThePatternAllows() throws {
        let zip = try pattern("[0-9]{5}(?:-[0-9]{4})?")
        #expect(zip.live("123456") == .invalid)
        #expect(zip.live("12345-678") == .incomplete)
        #expect(zip.live("12345-67890") == .invalid)
        #expect(zip.live("12345") == .valid)
        let four = try pattern("[0-9]{4}")
        #expect(four.live("12345") == .invalid)
        #expect(four.live("123") == .incomplete)
        // Extended mode: a trailing comment does not swallow anything.
        let commented = try pattern("[0-9]{2} # two digits", .extended)
        #expect(commented.live("123") == .invalid)
        #expect(commented.live("1") == .incomplete)
        #expect(commented.isValid("12"))
    }

    /// `pattern not`: fails the values that match; live, only once every continuation would.
    @Test func patternNot() throws {
        let noSpace = try pattern("[\\s\\S]*\\s[\\s\\S]*", negated: true)
        #expect(noSpace.isValid("word"))
        #expect(noSpace.failed("two words") == ["pattern"])
        #expect(noSpace.validate("two words").violations.first?.message == "Is in a format that is not allowed")
        // Live: "a b" can never become a value without white space; "ab" can stay one.
        #expect(noSpace.live("a b") == .invalid)
        #expect(noSpace.live("ab") == .valid)
        // `.` stops at a line feed, so after "a b" a continuation such as "\n\n" does not
        // match `.*\s.*`: not every continuation matches, and the prefix is not invalid.
        let dotted = try pattern(".*\\s.*", negated: true)
        #expect(dotted.live("a b") != .invalid)
        #expect(dotted.isValid("a b\n\n"))
        let testCard = try pattern("4242 ?4242 ?4242 ?4242", negated: true)
        #expect(testCard.failed("4242 4242 4242 4242") == ["pattern"])
        #expect(testCard.isValid("4242 4242 4242 4241"))
        // A prefix of the test number is not yet invalid: it may go on to another number.
        #expect(testCard.failed("4242 4242 4242 4242", .live).isEmpty)
        #expect(testCard.live("4242 4242") == .valid)
    }

    /// What used to backtrack catastrophically (and failed as `pattern-budget`) is an ordinary
    /// pattern now: no warning, and every value gets its answer.
    @Test func nestedQuantifiersAreOrdinaryPatterns() throws {
        let d = definition(checks: [check(.pattern(source: "(a+)+$", flags: []))])
        let (compiled, diagnostics) = FieldCompiler.compile(d, arguments: [:], today: testToday)
        #expect(diagnostics.isEmpty)
        let type = try #require(compiled)
        let value = String(repeating: "a", count: 30) + "!"
        #expect(type.failed(value) == ["pattern"])
        #expect(type.failed(value, .live) == ["pattern"])
        #expect(type.isValid(String(repeating: "a", count: 30)))
    }

    @Test func megabyteValuesPassLinearPatterns() throws {
        let big = String(repeating: "abcdefghij", count: 100_000)
        for source in ["[a-z]+", "\\w+", "(?:abcdefghij)+", "[a-j]*j", "(?:[a-z]{2})+"] {
            let type = try pattern(source)
            #expect(type.isValid(big), "\(source)")
            #expect(type.live(big) == .valid, "\(source)")
        }
        let email = try pattern("[^@\\s]+@[^@\\s]+\\.[a-z]{2,}")
        #expect(email.isValid(String(repeating: "x", count: 1_000_000) + "@example.com"))
        #expect(!email.isValid(String(repeating: "x", count: 1_000_000)))
    }

    /// A definition built in code skips the parser: the compiler reports its pattern's
    /// problem, with the language's id and where in the pattern it is.
    @Test func invalidPatternsOfDefinitionsBuiltInCodeAreLoadErrors() {
        let d = definition(checks: [check(.pattern(source: "ab(c", flags: []), line: 7)])
        let diagnostics = FieldCompiler.compile(d, arguments: [:], today: testToday).diagnostics
        #expect(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        #expect(diagnostic.id == LanguageDiagnostic.invalidRegex.id)
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location.line == 7)
        #expect(diagnostic.message.contains("not closed"))
        #expect(diagnostic.notes.map(\.message) == ["at offset 2 of the pattern"])
        #expect(FieldCompiler.compile(d, arguments: [:], today: testToday).compiled == nil)
        let lookahead = definition(checks: [check(.pattern(source: "(?=.*[0-9]).{8,}", flags: []))])
        #expect(diagnosticIDs(lookahead) == ["unsupported-regex"])
        #expect(diagnosticIDs(definition(checks: [check(.pattern(source: "\\p{Letter}", flags: []))])) == [])
    }
}
