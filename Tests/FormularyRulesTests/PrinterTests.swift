import Foundation
import Testing
@testable import FormularyRules

@Suite struct PrinterTests {
    /// Parses and resolves `text` as a standalone type.
    func reparse(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> FieldTypeDefinition? {
        resolvedField(text, sourceLocation: sourceLocation)
    }

    func assertRoundTrip(_ def: FieldTypeDefinition, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let printed = def.canonicalSource
        guard let again = reparse(printed, sourceLocation: sourceLocation) else { return }
        var expected = def.strippingLocations()
        expected.bases = []
        #expect(again.strippingLocations() == expected, "\(printed)", sourceLocation: sourceLocation)
        #expect(again.canonicalSource == printed, sourceLocation: sourceLocation)
    }

    static let kitchenSink = #"""
        field sink
        label "Quote \" backslash \\ tab \t newline \n bell \u{7}"
        help "Zoë 👨‍👩‍👧"
        placeholder ""
        keyboard decimal-pad
        autocapitalize words
        secure
        timing submit
        param min = -3
        param max = 7.25
        param from = "today-18y"
        param places = 2
        normalize trim collapse-spaces strip "()\"\\" uppercase
        normalize lowercase capitalize strip-spaces
        mask "\\0(000) A*" as shape message "fill {value}" warning final
        length 16 utf16 final
        length 2...60 bytes as l1
        length 0..<100 scalars as l2
        length 18... as l3
        length ...160 as l4
        length ..<10 as l5
        length $places... as l6
        integer warning
        decimal
        decimal places 3 as d2
        decimal places $places as d3
        range 0<...100
        range 1.1<.. as r2
        range 0<..<1 as r3
        range $min...$max as r4
        range -1.5 as r5
        pattern /a\/b\\\/c\d#x/ix
        pattern /plain/ as p2
        pattern not /a\/b/i as p3
        charset digits letters marks spaces punctuation alphanumerics "'’-"
        one-of "a" "b \"q\"" "" ignore-case
        one-of "x" as o2
        date "yyyy-MM-dd" 2000-01-31...today+12y
        date "MM/yy" today-12y..<today as d5
        date "yy" $from... as d6
        date "yyyy" today as d7
        date "yyyy" 0100-02-28<..<today+6m as d8
        checksum luhn message "Luhn {value}"
        checksum mod97
        accept "a"
        accept live "b" formats "B"
        reject "c" luhn length
        reject live "d" mod97
        """#

    @Test func kitchenSinkRoundTrips() throws {
        let def = try #require(reparse(Self.kitchenSink))
        assertRoundTrip(def)
        #expect(def.canonicalSource.contains(#"label "Quote \" backslash \\ tab \t newline \n bell \u{7}""#))
        #expect(def.canonicalSource.contains(#"pattern /a\/b\\\/c\d#x/ix"#))
        #expect(def.canonicalSource.contains(#"pattern not /a\/b/i as p3"#))
        #expect(def.canonicalSource.contains("\nrange -1.5 as r5\n"))
        #expect(def.canonicalSource.contains("\nrange 1.1<.. as r2\n"))
        #expect(def.canonicalSource.contains("\nmask \"\\\\0(000) A*\" as shape message \"fill {value}\" warning final\n"))
    }

    @Test func exactCanonicalText() throws {
        let def = try #require(reparse("""
            # comment
            field   card   # trailing
            keyboard number-pad
            label "Card"
            normalize strip " -"
            checksum luhn      message "bad"
            mask "0000 0000"
            drop mask
            length 16...16 bytes
            accept "1"
            """))
        #expect(def.canonicalSource == """
            field card
            label "Card"
            keyboard number-pad
            normalize strip " -"
            mask "0000 0000"
            drop mask
            checksum luhn message "bad"
            length 16 bytes
            accept "1"

            """)
        assertRoundTrip(def)
    }

    @Test func derivedTypesPrintWithoutExtends() throws {
        let r = resolver([ResolverTests.base, "field visa extends card\nlabel \"Visa\"\ndrop digits-only"])
        let visa = try #require(r.resolve("visa")).get()
        #expect(visa.canonicalSource.hasPrefix("field visa\nlabel \"Visa\"\n"))
        #expect(!visa.canonicalSource.contains("extends"))
        assertRoundTrip(visa)
    }

    @Test func builtInPluginsParseResolveAndRoundTrip() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../plugins").standardized
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".field") }.sorted()
        #expect(files.count > 0)
        var declarations: [String: FieldTypeDecl] = [:]
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            let outcome = PluginSource.parse(bytes: bytes, file: "plugins/" + file)
            #expect(outcome.diagnostics == [], "\(DiagnosticFormatter().format(outcome.diagnostics))")
            if case .field(let decl) = outcome.content { declarations[decl.name] = decl }
        }
        let r = TypeResolver(declarations: declarations)
        for name in declarations.keys.sorted() {
            let result = try #require(r.resolve(name))
            switch result {
            case .success(let def): assertRoundTrip(def)
            case .failure(let failure): Issue.record("\(name): \(failure)")
            }
        }
    }

    @Test func canonicalSourceIsStable() throws {
        let def = try #require(reparse(Self.kitchenSink))
        #expect(def.canonicalSource == def.canonicalSource)
        #expect(reparse(def.canonicalSource)?.canonicalSource == def.canonicalSource)
    }

    /// `Canonical.quote` walks UTF-8 for speed; version hashes depend on its output, so it
    /// must spell every scalar exactly as the scalar-by-scalar definition does — controls
    /// (Cc) and U+2028/U+2029 as `\u{…}`, the five escapes by name, the rest as it is — and
    /// the lexer must read it back as the text.
    @Test func quotedStringsSpellEveryScalarAsTheDefinitionDoes() {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                default:
                    if scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 {
                        out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }
        let ranges: [ClosedRange<UInt32>] = [0...0x2FF, 0x1FFF...0x2030, 0xD7FF...0xD7FF, 0xE000...0xE010,
                                             0xFEFF...0xFEFF, 0xFFF0...0xFFFF, 0x1F600...0x1F64F, 0x10FFFF...0x10FFFF]
        let scalars = ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
        var texts = scalars.map { String(Character($0)) }
        texts.append(String(String.UnicodeScalarView(scalars)))
        texts += ["", "plain", "a\u{C2}\u{80}b", "\u{85}\u{2028}x\u{2029}", "Zoë 👨‍👩‍👧 \"q\" \\"]
        for text in texts {
            let quoted = Canonical.quote(text)
            #expect(quoted == reference(text), "\(text.debugDescription)")
            let tokens = Lexer.lex("label " + quoted, file: "t").lines.flatMap(\.tokens).map(\.kind)
            #expect(tokens == [.word("label"), .string(text)], "\(text.debugDescription)")
        }
    }

    @Test func formsRoundTrip() throws {
        let outcome = parseText(FormTests.signup + "\nfield x phrase(a: \"q\\\"\", b: -1.5) label \"X\\n\"\nsame a b as s warning",
                            file: "f.form")
        #expect(outcome.diagnostics == [])
        guard case .form(let form) = outcome.content else { Issue.record("no form"); return }
        let printed = form.canonicalSource
        #expect(printed.contains("\nfield age age(min: 18) required\n"))
        #expect(printed.contains("\nfield email-again email required label \"Confirm email\"\n"))
        #expect(printed.contains("\nfield x phrase(a: \"q\\\"\", b: -1.5) label \"X\\n\"\n"))
        #expect(printed.contains("\nsame email email-again message \"The two emails differ\"\n"))
        #expect(printed.contains("\nrequire expires cvv when card\n"))
        #expect(printed.hasSuffix("\nsame a b as s warning\n"))
        let again = parseText(printed, file: "f.form")
        #expect(again.diagnostics == [])
        guard case .form(let reparsed) = again.content else { Issue.record("no form"); return }
        #expect(reparsed.strippingLocations() == form.strippingLocations())
    }

    @Test func dateBoundParsing() {
        #expect(DateBound(parsing: "2000-02-29") == .absolute(year: 2000, month: 2, day: 29))
        #expect(DateBound(parsing: "today") == .today(offset: 0, unit: .days))
        #expect(DateBound(parsing: "today-18y") == .today(offset: -18, unit: .years))
        #expect(DateBound(parsing: "today+6m") == .today(offset: 6, unit: .months))
        #expect(DateBound(parsing: "1900-02-29") == nil)
        #expect(DateBound(parsing: "tomorrow") == nil)
        #expect(DateBound(parsing: "today+6w") == nil)
    }
}
