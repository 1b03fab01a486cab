import Testing
@testable import FormularyRules

/// The dialect: what it reads, what it refuses (naming the construct, with a replacement where
/// one means the same), and the limits that keep parsing and compiling bounded.
@Suite struct PatternParserTests {
    private func parses(_ source: String, _ flags: RegexFlags = []) -> Bool {
        (try? PatternParser.parse(source, flags: flags)) != nil
    }

    private func problem(_ source: String, _ flags: RegexFlags = []) -> PatternError? {
        do {
            _ = try PatternParser.parse(source, flags: flags)
            return nil
        } catch {
            return error
        }
    }

    private func matches(_ source: String, _ value: String, _ flags: RegexFlags = []) throws -> Bool {
        let program = try PatternCache.shared.program(source, flags: flags)
        var value = value
        return value.withUTF8 { bytes in Scratch.withCurrent { program.matches(bytes, scratch: $0) } }
    }

    /// Everything the contract lists.
    @Test func theDialectReadsWhatTheContractLists() throws {
        let accepted = [
            "abc", "\\.\\\\/\\t\\n\\r\\f\\v", "\\x41\\x{1F600}\\u{E9}", ".", "[a-z0-9_]", "[^\\s]", "[\\d.\\-]",
            "\\d\\D\\w\\W\\s\\S", "\\p{L}\\p{Lu}\\p{Letter}\\p{Uppercase_Letter}\\P{N}", "\\p{Latin}\\p{Cyrillic}\\p{Han}\\p{Greek}",
            "(a)(?:b)(?<name>c)", "a|b|", "a*b+c?d{2}e{2,}f{2,5}", "a*?b+?c??d{2}?", "a*+b++c?+d{2,}+", "^a$", "\\Aa\\z",
            "(?i)abc", "(?x) a b c", "(?ix)a", "a{1000}", "[\\]a]", "[-a]", "[a-]", "[^-a]", "a{0}", "()",
            "\\p{lu}\\p{LATIN}\\p{uppercase letter}", "\\p{Latn}\\p{Zyyy}",
        ]
        for source in accepted { #expect(parses(source), "\(source)") }
        #expect(try matches("\\x41\\x{1F600}\\u{E9}", "A😀é"))
        #expect(try matches("\\t\\n\\r\\f\\v", "\t\n\r\u{0C}\u{0B}"))
        #expect(try matches("a*+a", "aaa"), "a possessive quantifier means the plain one")
        #expect(try matches("(?:ab)++", "abab"))
        #expect(try matches("^^a$$", "a"))
        #expect(try matches(".", "\u{0}"))
        #expect(!(try matches(".", "\n")), "'.' is any scalar but a line feed")
        #expect(try matches("[\\s\\S]", "\n"))
        #expect(try matches("\\p{Zyyy}+", "1 ."), "script aliases: Zyyy is Common")
    }

    @Test func flagsAndExtendedMode() throws {
        #expect(try matches("a b # comment", "ab", .extended))
        #expect(try matches("a\\ b", "a b", .extended))
        #expect(try matches("[ ]", " ", .extended), "x does not apply inside a class")
        #expect(try matches("a\\#b", "a#b", .extended))
        #expect(try matches("a +", "aaa", .extended), "white space between an atom and its quantifier")
        #expect(try matches("(?x)a b", "ab"))
        #expect(try matches("k", "\u{212A}", .caseInsensitive), "the Kelvin sign folds to k")
        #expect(try matches("[^k]", "x", .caseInsensitive))
        #expect(!(try matches("[^k]", "K", .caseInsensitive)))
        #expect(!(try matches("\\p{Lu}", "a", .caseInsensitive)), "properties ignore i, as in PCRE2")
        #expect(try matches("σ", "ς", .caseInsensitive))
        #expect(!(try matches("ß", "ẞ")))
        #expect(try matches("ß", "ẞ", .caseInsensitive))
    }

    /// Every construct of other dialects is refused with its own problem; a replacement is
    /// offered where one means the same.
    @Test func otherDialectsConstructsAreRefused() {
        let refused: [(String, PatternProblem, String?)] = [
            ("(a)\\1", .backreference("\\1"), nil),
            ("\\k<n>", .backreference("\\k<n>"), nil),
            ("(?=a)a", .lookaround(.lookahead), nil),
            ("(?!a)b", .lookaround(.negativeLookahead), nil),
            ("a(?<=a)", .lookaround(.lookbehind), nil),
            ("a(?<!b)", .lookaround(.negativeLookbehind), nil),
            ("\\ba", .wordBoundary("\\b"), nil),
            ("(?>a+)", .atomicGroup, "(?:"),
            ("(?|a|b)", .branchReset, "(?:"),
            ("(?(1)a|b)", .conditional, nil),
            ("(?R)", .recursion("(?R)"), nil),
            ("(*UTF)a", .verb("(*UTF)"), nil),
            ("a(?#note)b", .groupComment, ""),
            ("a(?i)b", .inlineFlags("(?i)"), nil),
            ("(?s:a)", .inlineFlags("(?s:"), nil),
            ("(?P<n>a)", .namedGroupSpelling("(?P<n>"), "(?<n>"),
            ("(?'n'a)", .namedGroupSpelling("(?'n'"), "(?<n>"),
            ("a\\Z", .otherEscape("\\Z", meaning: "end of the value or before a final line feed"), "\\z"),
            ("\\Qa.b\\E", .otherEscape("\\Qa.b\\E", meaning: "quoted text"), "a\\.b"),
            ("\\R", .otherEscape("\\R", meaning: "line break"), "(?:\\r\\n|[\\n\\v\\f\\r\\x{85}\\x{2028}\\x{2029}])"),
            ("\\e", .otherEscape("\\e", meaning: "escape character"), "\\x{1B}"),
            ("\\cA", .otherEscape("\\cA", meaning: "control character"), "\\x{1}"),
            ("\\012", .otherEscape("\\012", meaning: "octal character"), "\\x{A}"),
            ("\\X", .otherEscape("\\X", meaning: "extended grapheme cluster"), nil),
            ("\\K", .otherEscape("\\K", meaning: "match start reset"), nil),
            ("\\G", .otherEscape("\\G", meaning: "start of the previous match"), nil),
            ("\\C", .otherEscape("\\C", meaning: "single code unit"), nil),
            ("\\N", .otherEscape("\\N", meaning: "any character but a line feed"), "."),
            ("\\h", .otherEscape("\\h", meaning: "horizontal white space"), "[\\t\\p{Zs}\\x{180E}]"),
            ("[[:alpha:]]", .posixClass("[:alpha:]"), nil),
            ("\\p{^L}", .otherEscape("\\p{^L}", meaning: "negated property"), "\\P{L}"),
        ]
        for (source, expected, replacement) in refused {
            let error = problem(source)
            #expect(error?.problem == expected, "\(source): \(String(describing: error))")
            #expect(error?.problem.isUnsupported == true, "\(source)")
            #expect(error?.replacement == replacement, "\(source)")
        }
    }

    /// Mistakes in any dialect, with the offending range.
    @Test func mistakesAreRefusedWhereTheyAre() {
        let invalid: [(String, PatternProblem, Range<Int>, String?)] = [
            ("ab(c", .unclosedGroup, 2..<3, nil),
            ("ab)", .unmatchedParenthesis, 2..<3, "\\)"),
            ("[ab", .unclosedClass, 0..<1, nil),
            ("[]a]", .emptyClass, 0..<2, "\\]"),
            ("*a", .nothingToRepeat("*"), 0..<1, nil),
            ("a**", .repeatedQuantifier("*"), 2..<3, nil),
            ("a{2}{3}", .repeatedQuantifier("{2}"), 4..<5, nil),
            ("a{b", .braceNotQuantifier, 1..<2, "\\{"),
            ("a}", .loneBracket("}"), 1..<2, "\\}"),
            ("a]", .loneBracket("]"), 1..<2, "\\]"),
            ("a{1001}", .repetitionTooLarge(1001), 2..<6, nil),
            ("a{5,2}", .repetitionOutOfOrder(min: 5, max: 2), 1..<6, "{2,5}"),
            ("a{,5}", .repetitionWithoutLowerBound, 1..<5, "{0,5}"),
            ("a^b", .anchorNotAtStart("^"), 1..<2, "\\^"),
            ("(^a)", .anchorNotAtStart("^"), 1..<2, "\\^"),
            ("a$b", .anchorNotAtEnd("$"), 1..<2, "\\$"),
            ("a\\zb", .anchorNotAtEnd("\\z"), 1..<3, nil),
            ("^*", .nothingToRepeat("*"), 1..<2, nil),
            ("(?<1x>a)", .invalidGroupName("1x"), 3..<5, nil),
            ("(?<n>a)(?<n>b)", .duplicateGroupName("n"), 10..<11, nil),
            ("(?~a)", .unknownGroup("(?~"), 0..<3, nil),
            ("[z-a]", .reversedRange("z", "a"), 1..<4, "a-z"),
            ("[a-\\d]", .rangeWithClass("\\d"), 1..<5, nil),
            ("[\\d-a]", .rangeWithClass("\\d"), 1..<4, nil),
            ("[a-c-e]", .hyphenInClass, 4..<5, "\\-"),
            ("[a[b]", .bracketInClass, 2..<3, "\\["),
            ("[\\z]", .escapeNotInClass("\\z"), 1..<3, nil),
            ("a\\", .trailingBackslash, 1..<2, nil),
            ("\\y", .unknownEscape("\\y"), 0..<2, nil),
            ("\\é", .unknownEscape("\\é"), 0..<2, "é"),
            ("\\x4", .invalidHexEscape("\\x4"), 0..<3, nil),
            ("\\u00E9", .invalidHexEscape("\\u00E9"), 0..<6, "\\u{00E9}"),
            ("\\x{D800}", .invalidScalar("\\x{D800}"), 0..<8, nil),
            ("\\x{110000}", .invalidScalar("\\x{110000}"), 0..<10, nil),
            ("\\p{Lettr}", .unknownProperty("Lettr", suggestion: "Letter"), 0..<9, "\\p{Letter}"),
            ("\\p{L&}", .unknownProperty("L&", suggestion: "LC"), 0..<6, "\\p{LC}"),
            ("\\pL", .propertyWithoutBraces("\\pL"), 0..<3, "\\p{L}"),
            ("\\p{L", .unterminatedProperty, 0..<4, nil),
        ]
        for (source, expected, range, replacement) in invalid {
            let error = problem(source)
            #expect(error?.problem == expected, "\(source): \(String(describing: error))")
            #expect(error?.problem.isUnsupported == false, "\(source)")
            #expect(error?.range == range, "\(source): \(String(describing: error?.range))")
            #expect(error?.replacement == replacement, "\(source)")
        }
    }

    /// Every replacement offered means what was written, read as the dialect would: the
    /// replaced pattern parses.
    @Test func replacementsParse() {
        for source in ["(?>a+)", "a(?#note)b", "\\Qa.b(\\E", "a\\Z", "\\R", "\\e", "\\cA", "\\012", "\\N", "\\h",
                       "a{b", "a}", "[]a]", "a{,5}", "a{5,2}", "[z-a]", "[a-c-e]", "[a[b]", "\\u00E9", "\\p{Lettr}",
                       "\\pL", "\\p{^L}", "(?P<n>a)", "(?'n'a)", "ab)", "a^b"] {
            guard let error = problem(source), let replacement = error.replacement, let range = error.replacing else {
                Issue.record("\(source): no replacement")
                continue
            }
            var scalars = Array(source.unicodeScalars)
            scalars.replaceSubrange(range, with: replacement.unicodeScalars)
            let fixed = String(String.UnicodeScalarView(scalars))
            #expect(parses(fixed), "\(source) → \(fixed)")
        }
    }

    /// Group nesting is limited (no pattern can overflow the stack) and so is the automaton a
    /// pattern expands to.
    @Test func limitsBoundTheWork() {
        let deepest = String(repeating: "(", count: PatternParser.maxDepth) + "a" + String(repeating: ")", count: PatternParser.maxDepth)
        #expect(parses(deepest))
        let tooDeep = String(repeating: "(", count: PatternParser.maxDepth + 1) + "a" + String(repeating: ")", count: PatternParser.maxDepth + 1)
        #expect(problem(tooDeep)?.problem == .nestedTooDeep(limit: PatternParser.maxDepth))
        #expect(problem(String(repeating: "(", count: 1_000_000))?.problem == .nestedTooDeep(limit: PatternParser.maxDepth))
        #expect(parses("(?:a{1000}){99}"))
        let tooLarge = problem("(?:a{1000}){1000}")
        #expect(tooLarge?.problem == .tooLarge(states: PatternParser.maxStates + 1, limit: PatternParser.maxStates))
        #expect(tooLarge?.range == 0..<17)
        #expect(problem("((a{1000}){1000}){1000}")?.range == 1..<16, "the innermost repetition that is too large")
        #expect(problem(String(repeating: "a", count: PatternParser.maxStates + 1))?.problem
                == .tooLarge(states: PatternParser.maxStates + 1, limit: PatternParser.maxStates))
    }

    /// Random text over the characters patterns are made of: the parser always ends, with a
    /// pattern or a problem inside the text, and checking alone finds the same.
    @Test func theParserEndsOnAnyText() {
        var rng = SplitMix64(seed: 0xF00D)
        let characters = Array("()[]{}|*+?.^$\\-:<>=!#,0123456789abpPxuQEdDwWsSkzA ").map { Unicode.Scalar(String($0))! } + ["é"]
        var parsed = 0
        for _ in 0..<20_000 {
            let source = rng.scalars(from: characters, maxLength: 16)
            for flags: RegexFlags in [[], [.extended, .caseInsensitive]] {
                // Checking (what reading a file does, without building sets) finds what parsing finds.
                var checked: PatternError?
                do { try PatternParser.check(source, flags: flags) } catch { checked = error }
                do {
                    _ = try PatternParser.parse(source, flags: flags)
                    parsed += 1
                    #expect(checked == nil, "\(source.debugDescription): \(String(describing: checked))")
                } catch {
                    #expect(checked == error, "\(source.debugDescription)")
                    let count = source.unicodeScalars.count
                    #expect(error.range.lowerBound >= 0 && error.range.upperBound <= max(count, 1) && !error.range.isEmpty,
                            "\(source.debugDescription): \(error)")
                }
            }
        }
        #expect(parsed > 1_000)
    }
}
