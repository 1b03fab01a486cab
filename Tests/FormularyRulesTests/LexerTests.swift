import Testing
@testable import FormularyRules

@Suite struct LexerTests {
    func kinds(_ text: String) -> [Token.Kind] {
        let lexed = Lexer.lex(text, file: "t")
        #expect(lexed.diagnostics.isEmpty, "\(lexed.diagnostics.map(\.message))")
        return lexed.lines.flatMap(\.tokens).map(\.kind)
    }

    func lexIDs(_ text: String) -> [String] {
        Lexer.lex(text, file: "t").diagnostics.map(\.id.rawValue)
    }

    @Test func rangesInEverySpelling() {
        #expect(kinds("2...60") == [.number("2"), .rangeOperator(.closed), .number("60")])
        #expect(kinds("0..<100") == [.number("0"), .rangeOperator(.halfOpen), .number("100")])
        #expect(kinds("18...") == [.number("18"), .rangeOperator(.closed)])
        #expect(kinds("...160") == [.rangeOperator(.closed), .number("160")])
        #expect(kinds("..<10") == [.rangeOperator(.halfOpen), .number("10")])
        #expect(kinds("0<...100") == [.number("0"), .rangeOperator(.exclusiveClosed), .number("100")])
        #expect(kinds("1.1<..") == [.number("1.1"), .rangeOperator(.exclusiveFrom)])
        #expect(kinds("0<..<1") == [.number("0"), .rangeOperator(.exclusiveHalfOpen), .number("1")])
        #expect(kinds("-5...-1.5") == [.number("-5"), .rangeOperator(.closed), .number("-1.5")])
        #expect(kinds("$min...$max") == [.parameter("min"), .rangeOperator(.closed), .parameter("max")])
    }

    @Test func datesAndRelativeDates() {
        #expect(kinds("2000-01-31...today") == [
            .date(CivilDate(year: 2000, month: 1, day: 31)), .rangeOperator(.closed),
            .relativeDate(offset: 0, unit: .days),
        ])
        #expect(kinds("today-12y...today+12y") == [
            .relativeDate(offset: -12, unit: .years), .rangeOperator(.closed),
            .relativeDate(offset: 12, unit: .years),
        ])
        #expect(kinds("today+6m today-30d") == [.relativeDate(offset: 6, unit: .months),
                                                .relativeDate(offset: -30, unit: .days)])
        #expect(lexIDs("2023-02-29") == ["invalid-date"])
        #expect(lexIDs("2024-02-29").isEmpty)
        #expect(lexIDs("today+3w") == ["invalid-date-offset"])
        #expect(lexIDs("today-y") == ["invalid-date-offset"])
    }

    @Test func numbers() {
        #expect(kinds("-12 0.5 1000 007") == [.number("-12"), .number("0.5"), .number("1000"), .number("007")])
        #expect(lexIDs("1e5") == ["invalid-number"])
        #expect(lexIDs("1.2.3") == ["invalid-number"])
        #expect(lexIDs("30px") == ["invalid-number"])
        // A separator is a separate token, which the parser rejects.
        #expect(kinds("1,000") == [.number("1"), .punctuation(","), .number("000")])
    }

    @Test func stringEscapes() {
        #expect(kinds(#""a\"b\\c\nd\re\tf\u{1F600}\u{41}""#) == [.string("a\"b\\c\nd\re\tf😀A")])
        #expect(kinds(##""# not a comment""##) == [.string("# not a comment")])
        #expect(lexIDs(#""\q""#) == ["invalid-escape"])
        #expect(lexIDs(#""\u{110000}""#) == ["invalid-escape"])
        #expect(lexIDs(#""\u{}""#) == ["invalid-escape"])
        #expect(lexIDs(#""\u41""#) == ["invalid-escape"])
        #expect(lexIDs(#""open"#) == ["unterminated-string"])
        #expect(lexIDs(#""ends in backslash\"#) == ["unterminated-string"])
    }

    @Test func regexLiterals() {
        #expect(kinds(#"/https?:\/\/[^\s\/]+/i"#) == [.regex(source: #"https?://[^\s/]+"#, flags: .caseInsensitive)])
        #expect(kinds(#"/a#b/ix # comment"#) == [.regex(source: "a#b", flags: [.caseInsensitive, .extended])])
        #expect(kinds(#"/\\/"#) == [.regex(source: #"\\"#, flags: [])])
        #expect(lexIDs("/abc") == ["unterminated-regex"])
        #expect(lexIDs(#"/abc\/"#) == ["unterminated-regex"])
        #expect(lexIDs("/a/g") == ["invalid-regex-flag"])
        #expect(lexIDs("/a/ii") == ["invalid-regex-flag"])
    }

    @Test func commentsAndBlankLines() {
        let lexed = Lexer.lex("# header\n\n   \nlabel \"x\" # trailing\n\t# indented\n", file: "t")
        #expect(lexed.lines.count == 1)
        #expect(lexed.lines[0].firstLine == 4)
        #expect(lexed.lines[0].tokens.map(\.kind) == [.word("label"), .string("x")])
    }

    @Test func continuationLines() {
        let lexed = Lexer.lex("pattern /a+/ \\\n   as letters \\  \n  warning\nlabel \"y\"\n", file: "t")
        #expect(lexed.diagnostics.isEmpty)
        #expect(lexed.lines.count == 2)
        let tokens = lexed.lines[0].tokens
        #expect(tokens.map(\.text) == ["pattern", "/a+/", "as", "letters", "warning"])
        #expect(tokens.map(\.location.line) == [1, 1, 2, 2, 3])
        #expect(tokens[2].location.column == 4)
        #expect(lexed.lines[1].firstLine == 4)
        // A backslash in a comment does not continue the line.
        #expect(Lexer.lex("a # c \\\nb", file: "t").lines.count == 2)
        // A continuation on the last line simply ends the file.
        #expect(Lexer.lex("a \\", file: "t").lines.map(\.tokens.count) == [1])
        #expect(lexIDs("a \\ b") == ["unexpected-character"])
    }

    @Test func punctuationParametersAndWords() {
        #expect(kinds("age(min: 21, max: \"x\") = one-of") == [
            .word("age"), .punctuation("("), .word("min"), .punctuation(":"), .number("21"),
            .punctuation(","), .word("max"), .punctuation(":"), .string("x"), .punctuation(")"),
            .punctuation("="), .word("one-of"),
        ])
        #expect(lexIDs("$ x") == ["unexpected-character"])
        #expect(lexIDs("a .. b") == ["invalid-range-operator"])
        #expect(lexIDs("a ; b @") == ["unexpected-character", "unexpected-character"])
        #expect(lexIDs("a <b") == ["unexpected-character"])
        // A form's `compare` operators; `<` before dots still starts a range operator.
        #expect(kinds("a < b <= c > d >= e != f = g <..5") == [
            .word("a"), .comparison(.less), .word("b"), .comparison(.lessOrEqual), .word("c"),
            .comparison(.greater), .word("d"), .comparison(.greaterOrEqual), .word("e"),
            .comparison(.notEqual), .word("f"), .punctuation("="), .word("g"), .rangeOperator(.exclusiveFrom), .number("5"),
        ])
        #expect(kinds("a <") == [.word("a"), .comparison(.less)])
        #expect(lexIDs("a ! b") == ["unexpected-character"])
    }

    @Test func invalidUTF8IsReportedWithLineAndColumn() {
        var bytes = Array("field x\nlabel \"é".utf8)
        bytes += [0xFF, 0x22, 0x0A]
        bytes += Array("help \"ok\"\n".utf8)
        let lexed = Lexer.lex(bytes, file: "bad.field")
        #expect(lexed.diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        let location = lexed.diagnostics[0].location
        #expect((location.line, location.column) == (2, 9))
        #expect(lexed.diagnostics[0].message.contains("0xFF"))
        // The bad line is skipped, the others are lexed.
        #expect(lexed.lines.count == 3)
        #expect(lexed.lines[1].hasLexicalErrors)
        #expect(lexed.lines[2].tokens.first?.text == "help")
        // Overlong encodings and surrogates are invalid too.
        #expect(Lexer.lex([0xC0, 0x80], file: "t").diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        #expect(Lexer.lex([0xED, 0xA0, 0x80], file: "t").diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        #expect(Lexer.lex([0xF4, 0x90, 0x80, 0x80], file: "t").diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        #expect(Lexer.lex([0xE2, 0x82], file: "t").diagnostics.map(\.id.rawValue) == ["invalid-utf8"])
        // Valid but stray characters are one run, reported once.
        let stray = Lexer.lex(Array("a €𝄞 b".utf8), file: "t").diagnostics
        #expect(stray.map(\.id.rawValue) == ["unexpected-character"])
        #expect(stray.first?.message == "unexpected characters '€𝄞'")
        #expect(stray.first?.location == SourceLocation(file: "t", line: 1, column: 3, length: 2))
    }

    @Test func byteOrderMarkAndCRLF() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("field x\r\nlabel \"y\"\r\n".utf8)
        let lexed = Lexer.lex(bytes, file: "t")
        #expect(lexed.diagnostics.isEmpty)
        #expect(lexed.lines.map { $0.tokens.map(\.text) } == [["field", "x"], ["label", "\"y\""]])
        #expect(lexed.source.lines == ["field x", "label \"y\""])
        #expect(lexed.lines[0].tokens[0].location.column == 1)
    }

    @Test func columnsCountCharacters() {
        // "é" as e + combining accent is one character; the emoji family is one too.
        let lexed = Lexer.lex("\"e\u{301}\" 👨‍👩‍👧 x", file: "t")
        #expect(lexed.diagnostics.map(\.id.rawValue) == ["unexpected-character"])
        #expect(lexed.diagnostics[0].location.column == 5)
        let tokens = lexed.lines[0].tokens
        #expect(tokens.map(\.location.column) == [1, 7])
        #expect(tokens[0].location.length == 3)
    }
}
