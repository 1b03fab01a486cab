import Testing
@testable import FormularyRules

@Suite struct BindingTests {
    let parameters = [
        Parameter(name: "min", defaultValue: .integer("0"), location: noLocation),
        Parameter(name: "max", defaultValue: .integer("150"), location: noLocation),
        Parameter(name: "scale", defaultValue: .decimal("1.5"), location: noLocation),
        Parameter(name: "unit", defaultValue: .string("years"), location: noLocation),
    ]

    func arguments(_ text: String) throws -> [TypeReference.Argument] {
        try PluginSource.parseTypeReference(text).get().arguments
    }

    func bind(_ text: String) throws -> Result<[String: ParameterValue], DiagnosticList> {
        ParameterBinding.bind(parameters, arguments: try arguments(text), typeName: "age",
                              source: SourceLines(file: "<command line>", lines: [text]))
    }

    @Test func defaultsAndOverrides() throws {
        #expect(try bind("age").get() == ["min": .integer("0"), "max": .integer("150"),
                                          "scale": .decimal("1.5"), "unit": .string("years")])
        #expect(try bind("age(min: 21, max: 99, unit: \"days\")").get() == [
            "min": .integer("21"), "max": .integer("99"), "scale": .decimal("1.5"), "unit": .string("days"),
        ])
        // An integer is a fine decimal.
        #expect(try bind("age(scale: 2)").get()["scale"] == .decimal("2"))
        #expect(try bind("age(scale: -0.25)").get()["scale"] == .decimal("-0.25"))
    }

    @Test func errors() throws {
        guard case .failure(let failure) = try bind("age(mni: 1, max: 2.5, unit: 3, min: \"x\", max: 3)") else {
            Issue.record("bound"); return
        }
        #expect(failure.diagnostics.map(\.id.rawValue) == ["unknown-parameter", "argument-kind", "argument-kind",
                                                  "argument-kind", "duplicate-argument"])
        #expect(failure.diagnostics[0].text == "type 'age' has no parameter 'mni'; did you mean 'min'?")
        #expect(failure.diagnostics[1].message == "parameter 'max' of type 'age' takes an integer; found the decimal 2.5")
        #expect(failure.diagnostics[1].location.column == 13)
        #expect(DiagnosticFormatter.caretLine(for: failure.diagnostics[1]) == "            ^~~~~~~~")
        #expect(failure.diagnostics[2].message.contains("takes a string; found the integer 3"))
        let none = ParameterBinding.bind([], arguments: try arguments("x(a: 1)"), typeName: "x")
        guard case .failure(let noParameters) = none else { Issue.record("bound"); return }
        #expect(noParameters.diagnostics[0].text == "type 'x' has no parameter 'a'; it takes no parameters")
        guard case .failure(let far) = try bind("age(zzzzzz: 1)") else { Issue.record("bound"); return }
        #expect(far.diagnostics[0].text.hasSuffix("its parameters are 'min', 'max', 'scale' or 'unit'"))
    }

    @Test func typeReferenceParsing() throws {
        let reference = try PluginSource.parseTypeReference("age(min: 21, max: 99)").get()
        #expect(reference.name == "age")
        #expect(reference.arguments.map(\.name) == ["min", "max"])
        #expect(reference.arguments.map(\.value) == [.integer("21"), .integer("99")])
        #expect(reference.description == "age(min: 21, max: 99)")
        #expect(try PluginSource.parseTypeReference("decimal(places: 3)").get().arguments.map(\.value) == [.integer("3")])
        #expect(try PluginSource.parseTypeReference("x(name: \"te\\\"xt\")").get().arguments.map(\.value) == [.string("te\"xt")])
        #expect(try PluginSource.parseTypeReference("age").get().arguments.isEmpty)
        #expect(try PluginSource.parseTypeReference("age()").get().arguments.isEmpty)
        #expect(try PluginSource.parseTypeReference("  age ( min : 1 ) ").get().arguments.count == 1)

        func failure(_ text: String) -> [String] {
            guard case .failure(let failure) = PluginSource.parseTypeReference(text) else { return [] }
            return failure.diagnostics.map(\.id.rawValue)
        }
        #expect(failure("") == ["missing-argument"])
        #expect(failure("Age") == ["invalid-name"])
        #expect(failure("age(") == ["missing-argument"])
        #expect(failure("age(min 1)") == ["unexpected-token"])
        #expect(failure("age(min: )") == ["unexpected-token"])
        #expect(failure("age(min: 1") == ["missing-argument"])
        #expect(failure("age(min: 1 max: 2)") == ["unexpected-token"])
        #expect(failure("age(min: today)") == ["unexpected-token"])
        #expect(failure("age) x") == ["unexpected-token"])
        #expect(failure("age(min: 1e3)") == ["invalid-number"])
        #expect(failure("age\nx") == ["missing-argument"])
        guard case .failure(let shown) = PluginSource.parseTypeReference("age(min: 1 max: 2)") else { return }
        #expect(shown.description == """
            <command line>:1:12: error: expected ',' or ')' after '1', found 'max'
            age(min: 1 max: 2)
                       ^~~

            """)
    }
}
