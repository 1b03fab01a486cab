import Testing
@testable import FormularyRules

@Suite struct ResolverTests {
    static let base = """
        field card
        label "Card"
        help "Digits"
        keyboard number-pad
        param digits = 16
        normalize strip " -"
        mask "0000 0000 0000 0000" message "incomplete"
        length $digits bytes
        checksum luhn
        pattern /[0-9 ]+/ as digits-only
        accept "4111 1111 1111 1111"
        reject "4111 1111 1111 1112" luhn
        """

    func resolved(_ name: String, _ texts: [String]) -> Result<FieldTypeDefinition, DiagnosticList>? {
        resolver(texts).resolve(name)
    }

    @Test func derivedTypeInheritsEverything() throws {
        let result = try #require(resolved("visa", [Self.base, "field visa extends card"]))
        let visa = try result.get()
        let card = try #require(resolved("card", [Self.base])).get()
        #expect(visa.name == "visa")
        #expect(visa.bases == ["card"])
        var renamed = card.strippingLocations()
        renamed.name = "visa"
        renamed.bases = ["card"]
        #expect(visa.strippingLocations() == renamed)
        #expect(visa.location.file == "f1.field")
    }

    @Test func ownLinesReplaceAppendAndDrop() throws {
        let visa = try #require(resolved("visa", [Self.base, """
            field visa extends card
            label "Visa"
            keyboard default
            autocapitalize never
            secure
            param digits = 13
            param brand = "visa"
            normalize uppercase
            mask "0000-0000-0000-0000"
            checksum luhn message "bad visa"
            pattern /4[0-9 ]+/ as starts-with-4
            drop digits-only
            accept "4111-1111-1111-1111"
            """])).get().strippingLocations()
        #expect(visa.label == "Visa")
        #expect(visa.help == "Digits")
        #expect(visa.keyboard == .default)
        #expect(visa.autocapitalize == .never)
        #expect(visa.secure)
        #expect(visa.parameters.map(\.name) == ["digits", "brand"])
        #expect(visa.parameters.map(\.defaultValue) == [.integer("13"), .string("visa")])
        #expect(visa.normalization == [.strip(" -"), .uppercase])
        #expect(visa.mask?.pattern == "0000-0000-0000-0000")
        #expect(visa.mask?.options.message == nil)
        // The replaced luhn keeps the base's position; the new pattern comes last.
        #expect(visa.checks.map(\.options.name) == ["length", "luhn", "starts-with-4"])
        #expect(visa.checks[1].options.message == "bad visa")
        #expect(visa.examples.map(\.value) == ["4111-1111-1111-1111"])
    }

    @Test func chainsAccumulateBases() throws {
        let gold = try #require(resolved("gold", [Self.base, "field visa extends card\nnormalize trim",
                                                  "field gold extends visa\nnormalize lowercase"])).get()
        #expect(gold.bases == ["visa", "card"])
        #expect(gold.normalization == [.strip(" -"), .trim, .lowercase])
        #expect(gold.examples.count == 2)
    }

    @Test func dropMaskKeepsFormattingOnly() throws {
        let def = try #require(resolved("x", ["field x\nmask \"AA00\"\ndrop mask\nreject \"1\" mask"]))
        guard case .failure(let failure) = def else { Issue.record("expected failure"); return }
        // `mask` is no longer a rule, so the example cannot name it.
        #expect(failure.diagnostics.map(\.id.rawValue) == ["unknown-rule"])
        let ok = try #require(resolved("x", ["field x\nmask \"AA00\"\ndrop mask"])).get()
        #expect(ok.mask?.pattern == "AA00")
        #expect(ok.mask?.checksFill == false)
        #expect(TypeResolver.ruleNames(of: ok).isEmpty)
    }

    @Test func droppingAnUnknownRuleIsAnError() throws {
        guard case .failure(let failure)? = resolved("x", [Self.base, "field x extends card\ndrop lunh"]) else {
            Issue.record("expected failure"); return
        }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["unknown-rule"])
        #expect(failure.diagnostics[0].text.contains("did you mean 'luhn'?"))
        #expect((failure.diagnostics[0].location.line, failure.diagnostics[0].location.column) == (2, 1))
        #expect(failure.diagnostics[0].sourceLine == "drop lunh")
    }

    @Test func inheritedExamplesMustStillNameRules() {
        guard case .failure(let failure)? = resolved("x", [Self.base, "field x extends card\ndrop luhn"]) else {
            Issue.record("expected failure"); return
        }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["unknown-rule"])
    }

    @Test func cyclesAndUnknownBases() {
        let r = resolver(["field a extends b", "field b extends c", "field c extends a",
                          "field self extends self", "field d extends a", "field e extends crd",
                          "field crd"])
        guard case .failure(let a)? = r.resolve("a") else { Issue.record("a resolved"); return }
        #expect(a.diagnostics.map(\.id.rawValue) == ["inheritance-cycle"])
        #expect(a.diagnostics[0].message == "inheritance cycle: a extends b extends c extends a")
        #expect(a.diagnostics[0].location == SourceLocation(file: "f0.field", line: 1, column: 17, length: 1))
        #expect(a.diagnostics[0].sourceLine == "field a extends b")
        guard case .failure(let me)? = r.resolve("self") else { Issue.record("self resolved"); return }
        #expect(me.diagnostics[0].message == "inheritance cycle: self extends self")
        guard case .failure(let d)? = r.resolve("d") else { Issue.record("d resolved"); return }
        #expect(d.diagnostics.map(\.id.rawValue) == ["inheritance-cycle"])
        #expect(d.diagnostics[0].message.contains("base type 'a' is part of an inheritance cycle"))
        let unknown = resolver(["field e extends crad", "field card"]).resolve("e")
        guard case .failure(let e)? = unknown else { Issue.record("e resolved"); return }
        #expect(e.diagnostics.map(\.id.rawValue) == ["unknown-base"])
        #expect(e.diagnostics[0].text == "unknown base type 'crad'; did you mean 'card'?")
        #expect(e.diagnostics[0].location.column == 17)
        #expect(r.resolve("nope") == nil)
    }

    @Test func brokenBase() throws {
        guard case .field(let broken) = parseText("field broken\nlabel 1").content else {
            Issue.record("no decl"); return
        }
        #expect(broken.hasErrors)
        let derived = try #require(declaration("field derived extends broken"))
        guard case .failure(let failure) = TypeResolver(declarations: ["broken": broken]).resolve(derived) else {
            Issue.record("resolved"); return
        }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["invalid-base"])
    }

    @Test func parametersAcrossInheritance() {
        let base = "field base\nparam min = 0\nparam max = 9.5\nparam from = \"2000-01-01\"\nrange $min...$max"
        #expect((try? resolved("d", [base, "field d extends base\nlength $min..."])?.get()) != nil)
        #expect((try? resolved("d", [base, "field d extends base\ndate \"yyyy\" $from...today"])?.get()) != nil)
        func failureIDs(_ text: String) -> [String] {
            guard case .failure(let failure)? = resolved("d", [base, text]) else { return [] }
            return failure.diagnostics.map(\.id.rawValue)
        }
        #expect(failureIDs("field d extends base\nlength $mni...") == ["unknown-parameter"])
        #expect(failureIDs("field d extends base\nlength $max...") == ["parameter-kind"])
        #expect(failureIDs("field d extends base\nrange $from...") == ["parameter-kind"])
        #expect(failureIDs("field d extends base\nparam min = \"a\"") == ["parameter-kind"])
        #expect(failureIDs("field d extends base\nparam when = \"soon\"\ndate \"yyyy\" $when...") == ["parameter-kind"])
        // Declared further down in the derived type but not in the base: used before declared.
        #expect(failureIDs("field d extends base\nlength $late...\nparam late = 1") == ["unknown-parameter"])
        // Standalone types are checked too.
        guard case .failure(let own)? = resolved("x", ["field x\nparam s = \"a\"\nlength $s..."]) else {
            Issue.record("resolved"); return
        }
        #expect(own.diagnostics.map(\.id.rawValue) == ["parameter-kind"])
    }

    @Test func ruleNameClashesWithTheMask() {
        guard case .failure(let f1)? = resolved("x", ["field b\nmask \"00\"", "field x extends b\npattern /a/ as mask"]) else {
            Issue.record("resolved"); return
        }
        #expect(f1.diagnostics.map(\.id.rawValue) == ["duplicate-rule"])
        guard case .failure(let f2)? = resolved("x", ["field b\nlength 1 as fill", "field x extends b\nmask \"00\" as fill"]) else {
            Issue.record("resolved"); return
        }
        #expect(f2.diagnostics.map(\.id.rawValue) == ["duplicate-rule"])
    }

    @Test func lookupClosure() throws {
        let decl = try #require(declaration("field one\nlength 1"))
        let r = TypeResolver(knownNames: ["one"]) { $0 == "one" ? decl : nil }
        #expect(try r.resolve("one")?.get().checks.count == 1)
    }
}
