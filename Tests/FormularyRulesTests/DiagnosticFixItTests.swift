import Testing
@testable import FormularyRules

/// "Did you mean" travels beside the message, as a fix-it (a replacement for the misspelled
/// token) or, where the token's place is not known exactly, as a note; the printed line is
/// the same as when it was part of the message.
@Suite struct DiagnosticFixItTests {
    /// The single fix-it of the first diagnostic, applied to its source line.
    private func corrected(_ text: String, file: String = "t.field") throws -> (Diagnostic, String) {
        let diagnostic = try #require(parseText(text, file: file).diagnostics.first)
        #expect(diagnostic.fixIts.count == 1, "\(diagnostic.fixIts)")
        let fixIt = try #require(diagnostic.fixIts.first)
        #expect(fixIt.range.file == file && fixIt.range.line == diagnostic.location.line)
        return (diagnostic, try #require(fixIt.applied(to: diagnostic.sourceLine)))
    }

    @Test func misspelledDirectiveIsAFixItThatCorrectsTheLine() throws {
        let (diagnostic, line) = try corrected("field age\nparam min = 0\nparam max = 150\nrnage $min...$max\n",
                                               file: "plugins/age.field")
        #expect(diagnostic.message == "unknown directive 'rnage'")
        #expect(!diagnostic.message.contains("did you mean"))
        #expect(diagnostic.fixIts == [Diagnostic.FixIt("did you mean 'range'?",
                                                       replacing: SourceLocation(file: "plugins/age.field", line: 4,
                                                                                 column: 1, length: 5),
                                                       with: "range")])
        #expect(line == "range $min...$max")
        #expect(diagnostic.text == "unknown directive 'rnage'; did you mean 'range'?")
        // The corrected line parses.
        #expect(parseText("field age\nparam min = 0\nparam max = 150\n\(line)\n").diagnostics.isEmpty)
    }

    @Test func fixItsReplaceOnlyTheMisspelledToken() throws {
        #expect(try corrected("field x\n\tlength 1 graphems").1 == "\tlength 1 graphemes")
        #expect(try corrected("field x\ncharset digts").1 == "charset digits")
        #expect(try corrected("field x\ninteger mesage \"x\"").1 == "integer message \"x\"")
        #expect(try corrected("feild x").1 == "field x")
        #expect(try corrected("field x extnds y").1 == "field x extends y")
        #expect(try corrected("form f\nfield a email requird", file: "f.form").1 == "field a email required")
        // A parameter reference keeps its '$'.
        let (reference, line) = try corrected("field x\nparam min = 1\nlength $mni...")
        #expect(line == "length $min...")
        #expect(reference.text == "unknown parameter '$mni'; did you mean 'min'?; declare it above with 'param mni = …'")
        #expect(reference.notes == [Diagnostic.Note("declare it above with 'param mni = …'")])
    }

    /// An argument's location spans `name: value`; the fix-it replaces the name only.
    @Test func argumentFixItReplacesTheNameNotTheValue() throws {
        let params = [Parameter(name: "min", defaultValue: .integer("0"), location: noLocation)]
        let source = SourceLines(file: "f.form", lines: ["field a age(mni: 3)"])
        let argument = TypeReference.Argument(name: "mni", value: .integer("3"),
                                              location: SourceLocation(file: "f.form", line: 1, column: 13, length: 6))
        guard case .failure(let failure) = ParameterBinding.bind(params, arguments: [argument], typeName: "age",
                                                                 source: source) else {
            Issue.record("an unknown argument was accepted")
            return
        }
        let diagnostic = try #require(failure.diagnostics.first)
        let fixIt = try #require(diagnostic.fixIts.first)
        #expect(fixIt.range.length == 3)
        #expect(fixIt.applied(to: diagnostic.sourceLine) == "field a age(min: 3)")
        #expect(DiagnosticFormatter().header(diagnostic)
                == "f.form:1:13: error: type 'age' has no parameter 'mni'; did you mean 'min'?")
    }

    /// Without a near word there is no fix-it; what to write instead is a note, printed as before.
    @Test func farWordsGetANoteInstead() throws {
        let diagnostic = try #require(parseText("field x\nkeyboard qwerty").diagnostics.first)
        #expect(diagnostic.fixIts.isEmpty)
        #expect(diagnostic.notes.count == 1)
        #expect(diagnostic.text
                == "unknown keyboard 'qwerty'; expected 'default', 'number-pad', 'decimal-pad', 'email', 'phone' or 'url'")
    }

    /// `drop` names a rule somewhere on its line: the suggestion is a note, not a fix-it.
    @Test func suggestionWithoutAnExactRangeIsANote() throws {
        let r = resolver(["field card\nchecksum luhn", "field x extends card\ndrop lunh"])
        guard case .failure(let failure)? = r.resolve("x") else {
            Issue.record("dropping an unknown rule was accepted")
            return
        }
        let diagnostic = try #require(failure.diagnostics.first)
        #expect(diagnostic.fixIts.isEmpty)
        #expect(diagnostic.notes == [Diagnostic.Note("did you mean 'luhn'?")])
        #expect(diagnostic.text == "cannot drop 'lunh': base type 'card' has no rule of that name; did you mean 'luhn'?")
    }

    @Test func fixItOutsideTheLineAppliesToNothing() {
        let fixIt = Diagnostic.FixIt("did you mean 'range'?",
                                     replacing: SourceLocation(file: "f", line: 1, column: 4, length: 5), with: "range")
        #expect(fixIt.applied(to: "rnage") == nil)
        #expect(fixIt.applied(to: "   rnage") == "   range")
        let wide = Diagnostic.FixIt("x", replacing: SourceLocation(file: "f", line: 1, column: 3, length: 2), with: "ab")
        #expect(wide.applied(to: "日本語です") == "日本abす")
    }

    /// The formatter prints fix-its and notes after the message, in that order.
    @Test func formatterPutsFixItsThenNotesAfterTheMessage() {
        let diagnostic = Diagnostic(
            id: LanguageDiagnostic.unknownParameter.id, severity: .error, message: "unknown parameter '$mni'",
            location: SourceLocation(file: "f", line: 2, column: 8, length: 4), sourceLine: "length $mni...",
            fixIts: [Diagnostic.FixIt("did you mean 'min'?", replacing: SourceLocation(file: "f", line: 2, column: 8, length: 4),
                                      with: "$min")],
            notes: [Diagnostic.Note("declare it above")])
        #expect(DiagnosticFormatter().format(diagnostic) == """
            f:2:8: error: unknown parameter '$mni'; did you mean 'min'?; declare it above
            length $mni...
                   ^~~~
            """)
    }
}
