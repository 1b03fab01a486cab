import Testing
@testable import FormularyRules

@Suite struct SelfTestTests {
    private func example(_ value: String, live: Bool = false, _ expectation: Example.Expectation, line: Int = 9) -> Example {
        Example(value: value, live: live, expectation: expectation, location: at(line))
    }

    private func card(_ examples: [Example], secure: Bool = false) throws -> CompiledFieldType {
        try compile(definition(normalize: [.strip(" -")], mask: "0000 0000 0000 0000",
                               checks: [check(.checksum(.luhn), message: "Card number is not valid")],
                               examples: examples, secure: secure))
    }

    @Test func passingExamples() throws {
        let type = try card([
            example("4111 1111 1111 1111", .accept(formats: nil)),
            example("4111111111111111", .accept(formats: "4111 1111 1111 1111")),
            example("4111 1111 1111 1112", .reject(rules: ["luhn"])),
            example("4111 1111 1111 11111", live: true, .reject(rules: ["mask"])),
            example("4111 11", live: true, .accept(formats: "4111 11")),
        ])
        let outcomes = SelfTests.run(type)
        #expect(outcomes.count == 5)
        #expect(outcomes.allSatisfy { $0.passed })
        #expect(outcomes.allSatisfy { $0.reason == nil })
    }

    @Test func failingExamplesSayWhy() throws {
        let type = try card([
            example("4111 1111 1111 1112", .accept(formats: nil)),
            example("4111111111111111", .accept(formats: "4111-1111-1111-1111")),
            example("4111 1111 1111 1112", .reject(rules: ["mask"])),
            example("4111 1111 1111 1111", .reject(rules: ["luhn"])),
            example("4111 x", live: true, .accept(formats: nil)),
        ])
        let outcomes = SelfTests.run(type)
        #expect(outcomes.map(\.passed) == [false, false, false, false, false])
        #expect(outcomes[0].reason == "\"4111 1111 1111 1112\" was expected to pass but fails luhn (Card number is not valid)")
        #expect(outcomes[1].reason == "\"4111111111111111\" formats to \"4111 1111 1111 1111\", not \"4111-1111-1111-1111\"")
        #expect(outcomes[2].reason == "\"4111 1111 1111 1112\" was expected to fail mask but fails luhn")
        #expect(outcomes[3].reason == "\"4111 1111 1111 1111\" was expected to fail luhn but fails no rule")
        #expect(outcomes[4].reason?.contains("expected to pass live") == true)
    }

    @Test func rejectNeedsTheExactSetOfRules() throws {
        let type = try compileType(check(.integer), check(.length(closed(1, 2), .graphemes), as: "short"))
        let d = definition(checks: [check(.integer), check(.length(closed(1, 2), .graphemes), as: "short")],
                           examples: [example("abc", .reject(rules: ["integer", "short"])),
                                      example("abc", .reject(rules: ["integer"])),
                                      example("123", .reject(rules: ["short"]))])
        let outcomes = SelfTests.run(try compile(d))
        #expect(outcomes.map(\.passed) == [true, false, true])
        #expect(type.failed("abc") == ["integer", "short"])
    }

    @Test func secureExamplesAreNotQuoted() throws {
        let type = try card([example("4111 1111 1111 1112", .accept(formats: nil))], secure: true)
        let reason = try #require(SelfTests.run(type).first?.reason)
        #expect(!reason.contains("4111"))
        #expect(reason.contains("•••"))
    }
}
