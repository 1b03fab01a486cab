import Foundation
import Testing
@testable import FormularyRules

@Suite struct EngineTests {
    @Test func absentValuesRunNoCheck() throws {
        let type = try compileType(check(.integer), check(.length(closed(3, 5), .graphemes)))
        for value in ["", "   ", "\t\n", "\u{00A0}\u{2003}"] {
            let result = type.validate(value)
            #expect(result.isAbsent)
            #expect(result.verdict == .valid)
            #expect(result.violations.isEmpty)
            #expect(result.formatted == value)
            #expect(type.isValid(value))
            #expect(type.format(value) == value)
        }
    }

    @Test func valueEmptiedByNormalizationIsNotAbsent() throws {
        let type = try compileType(normalize: [.strip("-")], check(.length(closed(1, 5), .graphemes)))
        let result = type.validate("---")
        #expect(!result.isAbsent)
        #expect(result.formatted == "")
        #expect(result.verdict == .invalid)
        #expect(result.violations.map(\.rule) == ["length"])
    }

    @Test func warningsAreListedButDoNotInvalidate() throws {
        let type = try compileType(check(.integer),
                                   check(.length(closed(1, 3), .graphemes), severity: .warning))
        let result = type.validate("12345")
        #expect(result.verdict == .valid)
        #expect(result.violations == [Violation(rule: "length", severity: .warning,
                                                message: "Must be 1 to 3 characters long")])
        #expect(type.isValid("12345"))
        #expect(type.validate("12a").verdict == .invalid)
    }

    @Test func violationsFollowCheckOrderWithMaskFirst() throws {
        let type = try compileType(mask: "000", check(.charset([.digits]), as: "digits-only"),
                                   check(.checksum(.luhn)))
        let result = type.validate("12x4")
        #expect(result.violations.map(\.rule) == ["mask", "digits-only", "luhn"])
    }

    @Test func messagesFillPlaceholders() throws {
        let d = definition(
            checks: [check(.length(RangeSpec(lower: .parameter("min", at(3)), upper: .value(4), upperInclusive: true), .graphemes),
                           message: "{value} must have {min}…{max} chars ({min} is {limit}); {unknown}")],
            parameters: [Parameter(name: "min", defaultValue: .integer("2"), location: at(2)),
                         Parameter(name: "limit", defaultValue: .string("low"), location: at(2))])
        let type = try compile(d, ["min": .integer("3")])
        #expect(type.arguments == ["min": ParameterValue.integer("3"), "limit": .string("low")])
        #expect(type.validate("ab").violations.first?.message == "ab must have 3…4 chars (3 is low); {unknown}")
    }

    @Test func secureValuesNeverAppearInMessages() throws {
        let d = definition(checks: [check(.length(closed(4, 4), .graphemes), message: "bad {value}!"),
                                    check(.pattern(source: "[0-9]+", flags: []), message: "{value}{value}")],
                           secure: true)
        let type = try compile(d)
        let result = type.validate("12a")
        #expect(result.violations.map(\.message) == ["bad •••!", "••••••"])
        #expect(!result.violations.contains { $0.message.contains("12a") })
    }

    @Test func defaultMessagesDescribeTheRule() throws {
        let type = try compileType(check(.range(decimalRange("18", "120"))),
                                   check(.oneOf(["a", "b"], ignoreCase: false)),
                                   check(.decimal(places: .value(2))))
        let messages = type.validate("7.125").violations.map(\.message)
        #expect(messages == ["Must be a number from 18 to 120", "Must be one of: a, b",
                             "Must be a number with at most 2 decimal places"])
    }

    @Test func formattedSharesTheValueWhenNothingChanges() throws {
        let type = try compileType(check(.integer))
        #expect(type.validate("42").formatted == "42")
        let trimmed = try compileType(normalize: [.trim], check(.integer))
        #expect(trimmed.validate("  42 ").formatted == "42")
        #expect(trimmed.format(" 42") == "42")
    }

    @Test func liveVerdicts() throws {
        let type = try compileType(mask: "000-000", check(.checksum(.luhn)))
        #expect(type.live("12") == .incomplete)
        #expect(type.validate("12", stage: .live).violations.isEmpty)
        #expect(type.live("123-45a") == .invalid)
        #expect(type.live("1234567") == .invalid)      // longer than the mask
        #expect(type.live("000-000") == .valid)
        // The checksum runs only in the final stage: a complete value failing it is
        // incomplete live, invalid final.
        #expect(type.live("123-456") == .incomplete)
        #expect(type.validate("123-456").verdict == .invalid)
    }

    @Test func finalMarkedChecksDoNotRunLive() throws {
        let type = try compileType(check(.length(closed(1, 2), .graphemes), final: true))
        #expect(type.live("abcdef") == .incomplete)
        #expect(type.validate("abcdef").verdict == .invalid)
    }

    @Test func validationIsSafeFromManyThreads() async throws {
        let type = try compileType(normalize: [.strip(" ")], mask: "0000 0000 0000 0000",
                                   check(.pattern(source: "[0-9 ]+", flags: [])), check(.checksum(.luhn)))
        let results = await withTaskGroup(of: Int.self) { group in
            for t in 0..<8 {
                group.addTask {
                    var ok = 0
                    for i in 0..<2_000 {
                        let value = i % 2 == 0 ? "4111111111111111" : "4111 1111 1111 111\(t % 10)"
                        if type.isValid(value) && type.validate(value).formatted == "4111 1111 1111 1111" { ok += 1 }
                    }
                    return ok
                }
            }
            return await group.reduce(0, +)
        }
        // Half the values are the valid card; "…1111" of thread 1 is valid too.
        #expect(results == 8 * 1_000 + 1_000)
    }
}
