import Testing
@testable import FormularyRules

@Suite struct RegexTests {
    private func pattern(_ source: String, _ flags: RegexFlags = []) throws -> CompiledFieldType {
        try compileType(check(.pattern(source: source, flags: flags)))
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
        let extended = try pattern("a b  # comment\n c", .extended)
        #expect(extended.isValid("abc"))
        #expect(!extended.isValid("a b c"))
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
        let quoted = try pattern("\\Q\\d\\E")
        #expect(quoted.isValid("\\d"))
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

    /// A value longer than anything the pattern accepts has no completion: PCRE2's
    /// end-anchored partial matching used to answer PARTIAL here (`us-zip 123456`).
    @Test func liveRejectsValuesLongerThanThePatternAllows() throws {
        let zip = try pattern("[0-9]{5}(?:-[0-9]{4})?")
        #expect(zip.live("123456") == .invalid)
        #expect(zip.live("12345-678") == .incomplete)
        #expect(zip.live("12345-67890") == .invalid)
        #expect(zip.live("12345") == .valid)
        let four = try pattern("[0-9]{4}")
        #expect(four.live("12345") == .invalid)
        #expect(four.live("123") == .incomplete)
        // Extended mode: a trailing comment must not swallow the live anchor.
        let commented = try pattern("[0-9]{2} # two digits", .extended)
        #expect(commented.live("123") == .invalid)
        #expect(commented.live("1") == .incomplete)
        #expect(commented.isValid("12"))
    }

    @Test func catastrophicBacktrackingStopsWithPatternBudget() throws {
        let d = definition(checks: [check(.pattern(source: "(a+)+$", flags: []))])
        let (compiled, diagnostics) = FieldCompiler.compile(d, arguments: [:], today: testToday)
        #expect(diagnostics.map(\.id.rawValue) == ["regex-backtracking"])
        #expect(diagnostics.first?.severity == .warning)
        let type = try #require(compiled)
        let value = String(repeating: "a", count: 30) + "!"
        let result = type.validate(value)
        #expect(result.violations.map(\.rule) == ["pattern-budget"])
        #expect(result.violations.first?.severity == .error)
        #expect(result.verdict == .invalid)
        // Stopped by the step budget for 31 bytes, not by memory or luck.
        let work = try #require(type.patternProgram).work(on: value)
        #expect(work.stoppedOnMatchLimit, "\(work)")
        #expect(work.budget == RegexProgram.matchLimit(forSubjectLength: 31))
        #expect(type.isValid(String(repeating: "a", count: 30)))
        // Live too.
        #expect(type.failed(String(repeating: "a", count: 40) + "!", .live) == ["pattern-budget"])
    }

    @Test func megabyteValuesPassLinearPatterns() throws {
        let big = String(repeating: "abcdefghij", count: 100_000)
        for source in ["[a-z]+", "\\w+", "(?:abcdefghij)+", "[a-j]*j", "(?:[a-z]{2})+"] {
            let type = try pattern(source)
            #expect(type.isValid(big), "\(source)")
            #expect(type.live(big) == .valid, "\(source)")
            // It passes on its own steps, with most of the budget to spare: no more steps
            // than bytes (`FormularyBench regex` prints the time).
            let work = try #require(type.patternProgram).work(on: big, countingSteps: true)
            let steps = try #require(work.stepsNeeded, "\(source): \(work)")
            #expect(work.outcome == .match && Int(steps) <= big.utf8.count, "\(source): \(work)")
        }
        let email = try pattern("[^@\\s]+@[^@\\s]+\\.[a-z]{2,}")
        #expect(email.isValid(String(repeating: "x", count: 1_000_000) + "@example.com"))
        #expect(!email.isValid(String(repeating: "x", count: 1_000_000)))
    }

    @Test func invalidPatternsAreLoadErrors() {
        let d = definition(checks: [check(.pattern(source: "ab(c", flags: []), line: 7)])
        let diagnostics = FieldCompiler.compile(d, arguments: [:], today: testToday).diagnostics
        #expect(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        #expect(diagnostic.id.rawValue == "invalid-regex")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.location.line == 7)
        #expect(diagnostic.message.contains("missing closing parenthesis"))
        #expect(diagnostic.message.contains("offset 4"))
        #expect(FieldCompiler.compile(d, arguments: [:], today: testToday).compiled == nil)
        // Offsets refer to the source as written, before `\d` is rewritten.
        let shifted = definition(checks: [check(.pattern(source: "\\d\\d[", flags: []))])
        #expect(FieldCompiler.compile(shifted, arguments: [:], today: testToday).diagnostics.first?.message
            .contains("offset 5") == true)
        #expect(diagnosticIDs(definition(checks: [check(.pattern(source: "\\p{Letter}", flags: []))])) == ["invalid-regex"])
    }

    @Test func nestedQuantifierDetection() {
        let flagged = ["(a+)+", "(a*)*", "(\\w+\\s?)*", "^(a|b+)+$", "((ab)+c)*", "(?:x+y?){2,}", "((a+))+"]
        let fine = ["(ab)+", "a+b+", "(a{2})+", "(a++)+", "(?>a+)+", "[(a+)]+", "\\(a+\\)+", "(a+)?", "(?:a+)", "(?i)a+",
                    "(?<name>a)+", "\\p{L}+"]
        for source in flagged { #expect(RegexSource.hasNestedQuantifier(source, extended: false), "\(source)") }
        for source in fine { #expect(!RegexSource.hasNestedQuantifier(source, extended: false), "\(source)") }
        #expect(!RegexSource.hasNestedQuantifier("a # (b+)+\n", extended: true))
    }
}
