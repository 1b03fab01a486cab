import Testing
@testable import FormularyRules

@Suite struct DiagnosticTests {
    @Test func specExampleRendersExactly() {
        let text = "field age\nparam min = 0\nparam max = 150\nrnage $min...$max\n"
        let outcome = parseText(text, file: "plugins/age.field")
        #expect(outcome.diagnostics.count == 1)
        #expect(DiagnosticFormatter().format(outcome.diagnostics) == """
            plugins/age.field:4:1: error: unknown directive 'rnage'; did you mean 'range'?
            rnage $min...$max
            ^~~~~

            """)
        #expect(outcome.diagnostics[0].description == """
            plugins/age.field:4:1: error: unknown directive 'rnage'; did you mean 'range'?
            rnage $min...$max
            ^~~~~
            """)
    }

    @Test func caretStaysUnderTheTokenAfterTabsAndWideCharacters() {
        let tab = parseText("field x\n\tkeyboard\tnumpad")
        #expect(DiagnosticFormatter.caretLine(for: tab.diagnostics[0]) == "\t        \t^~~~~~")
        #expect(tab.diagnostics[0].location.column == 11)

        let wide = parseText("field x\nlabel \"日本\" oops")
        #expect(wide.diagnostics[0].location.column == 12)
        #expect(DiagnosticFormatter.caretLine(for: wide.diagnostics[0]) == String(repeating: " ", count: 13) + "^~~~")

        let combining = parseText("field x\nlabel \"e\u{301}\u{301}\" oops")
        #expect(DiagnosticFormatter.caretLine(for: combining.diagnostics[0]) == String(repeating: " ", count: 10) + "^~~~")

        let emoji = parseText("field x\nlabel \"👍🏽\" oops")
        #expect(DiagnosticFormatter.caretLine(for: emoji.diagnostics[0]) == String(repeating: " ", count: 11) + "^~~~")
    }

    @Test func missingArgumentPointsJustPastTheLine() {
        let outcome = parseText("field x\nlabel")
        #expect(outcome.diagnostics[0].message == "expected a string in double quotes after 'label'")
        #expect(DiagnosticFormatter().format(outcome.diagnostics[0]).hasSuffix("label\n     ^"))
    }

    @Test func formatterWithoutSourceLine() {
        let diagnostic = Diagnostic(id: CompilerDiagnostic.unreachableMask.id, severity: .warning, message: "m",
                                    location: SourceLocation(file: "f", line: 2, column: 3), sourceLine: "")
        #expect(DiagnosticFormatter().format(diagnostic) == "f:2:3: warning: m")
        #expect(DiagnosticFormatter(showsSourceLine: false).format([diagnostic, diagnostic]) == "f:2:3: warning: m\nf:2:3: warning: m\n")
    }

    @Test func suggestions() {
        #expect(Suggestion.nearest(to: "rnage", in: ["length", "range"]) == "range")
        #expect(Suggestion.nearest(to: "lenght", in: ["length", "range"]) == "length")
        #expect(Suggestion.nearest(to: "Range", in: ["range"]) == "range")
        #expect(Suggestion.nearest(to: "zzzzz", in: ["range"]) == nil)
        #expect(Suggestion.nearest(to: "ab", in: ["xy"]) == nil)
        #expect(Suggestion.editDistance("kitten", "sitting") == 3)
        #expect(Suggestion.editDistance("ab", "ba") == 1)
    }

    /// Every diagnostic id has a trigger; the table fails if a new id is added without one.
    @Test func everyDiagnosticIDIsProduced() throws {
        var seen: Set<String> = []
        func record(_ diagnostics: [Diagnostic]) { seen.formUnion(diagnostics.map(\.id.rawValue)) }

        let fieldTexts = [
            "field x\nlabel \"\\q\"", "field x\n@", "field x\nlabel \"a", "field x\npattern /a",
            "field x\npattern /a/q", "field x\nlength 1e3", "field x\ndate \"yyyy\" 2023-02-30...",
            "field x\ndate \"yyyy\" today+1q...", "field x\nlength 1..3", "label \"x\"", "field x\nfield y",
            "field x\nrnage 1", "field X", "field x\nlabel", "field x\nlabel 1", "field x\nkeyboard numpad",
            "field x\nautocapitalize none", "field x\nautocomplete phone", "field x\ntiming never", "field x\nnormalize trm", "field x\nlength 1 graphems",
            "field x\ncharset digts", "field x\nchecksum lunh", "field x\ninteger warning warning",
            "field x\nlabel \"a\"\nlabel \"b\"", "field x\nparam a = 1\nparam a = 2", "field x\nlength 1\nlength 2",
            "field x\nnormalize strip \"a\"", "field x\nmask \"-\"", "field x\nrange ...",
            "field x\ndate \"MM\"", "field x\nlength $n", "field x\nparam s = \"a\"\nlabel $s",
            "field x\npattern /a(b/", "field x\npattern /(?=a)b/", "field x\ndecimal-separator \";\"",
        ]
        for text in fieldTexts { record(parseText(text).diagnostics) }
        record(Lexer.lex([0xFF], file: "t").diagnostics)

        let r = resolver([
            "field base\nparam n = 1\nparam s = \"x\"\nlength $n...\nmask \"00\"",
            "field kind extends base\nparam n = \"a\"",
            "field use extends base\nrange $s...",
            "field orphan extends nothing",
            "field a extends b", "field b extends a",
            "field drops extends base\ndrop nothing",
            "field unknown-ref extends base\nlength $nope...",
            "field retired\npattern /a+/\nreject \"b\" pattern-budget",
        ])
        if case .success(let retired)? = r.resolve("retired") {
            record(FieldCompiler.compile(retired, arguments: [:], today: testToday).diagnostics)
        }
        for name in ["kind", "use", "orphan", "a", "drops", "unknown-ref"] {
            if case .failure(let failure)? = r.resolve(name) { record(failure.diagnostics) }
        }
        if case .field(let broken) = parseText("field broken\nrnage 1").content {
            let derived = try #require(declaration("field derived extends broken"))
            if case .failure(let failure) = TypeResolver(declarations: ["broken": broken]).resolve(derived) {
                record(failure.diagnostics)
            }
        }

        let deep = resolver((0...TypeResolver.maximumDepth + 1).map { $0 == 0 ? "field d0" : "field d\($0) extends d\($0 - 1)" })
        if case .failure(let failure)? = deep.resolve("d\(TypeResolver.maximumDepth + 1)") { record(failure.diagnostics) }

        let form = parseText("form f\nfield a email(x: 1)\nfield a emial\nsame a b", file: "f.form")
        if case .form(let definition) = form.content {
            let email = FieldTypeDefinition(name: "email", parameters: [
                Parameter(name: "x", defaultValue: .string(""), location: noLocation),
            ], location: noLocation)
            record(FormChecker.check(definition, source: form.source, knownTypes: ["email"]) {
                $0 == "email" ? email : nil
            })
        }
        let rules = parseText("form g\nfield d date\nfield n n\ncompare d < n\nunique n, n", file: "g.form")
        if case .form(let definition) = rules.content {
            let date = FieldTypeDefinition(name: "date", checks: [
                CheckRule(kind: .date(format: "yyyy", range: nil), options: RuleOptions(name: "date", location: noLocation)),
            ], location: noLocation)
            let number = FieldTypeDefinition(name: "n", checks: [
                CheckRule(kind: .integer, options: RuleOptions(name: "integer", location: noLocation)),
            ], location: noLocation)
            record(FormChecker.check(definition, source: rules.source) { $0 == "date" ? date : $0 == "n" ? number : nil })
        }
        let params = [Parameter(name: "n", defaultValue: .integer("1"), location: noLocation)]
        let twice = [TypeReference.Argument(name: "n", value: .integer("1"), location: noLocation),
                     TypeReference.Argument(name: "n", value: .integer("2"), location: noLocation)]
        if case .failure(let failure) = ParameterBinding.bind(params, arguments: twice, typeName: "t") {
            record(failure.diagnostics)
        }

        let missing = Set(LanguageDiagnostic.allCases.map(\.rawValue)).subtracting(seen)
        #expect(missing.isEmpty, "no test produces \(missing.sorted())")
    }
}
