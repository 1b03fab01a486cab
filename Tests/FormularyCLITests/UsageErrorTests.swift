import Foundation
import Testing

/// Usage errors: exit status 2, `formulary: error: …` on standard error with a hint at
/// `--help`, and nothing on standard output.
@Suite struct UsageErrorTests {
    /// Checks the shape every usage error shares and returns the error line.
    @discardableResult
    func expectUsageError(_ result: ProcessResult, help: String,
                          sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(result.status == 2, "\(result)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "\(result)", sourceLocation: sourceLocation)
        let lines = result.errorLines
        #expect(lines.first?.hasPrefix("formulary: error: ") == true, "\(result)", sourceLocation: sourceLocation)
        #expect(lines.last == "See '\(help)'.", "\(result)", sourceLocation: sourceLocation)
        return lines.first ?? ""
    }

    @Test func unknownCommandSuggestsTheNearestOne() throws {
        let sandbox = try Sandbox()
        let line = expectUsageError(try sandbox.run("chek", "cvv", "123"), help: "formulary --help")
        #expect(line == "formulary: error: unknown command 'chek'; did you mean 'check'?")
        let far = expectUsageError(try sandbox.run("frobnicate"), help: "formulary --help")
        #expect(far.contains("unknown command 'frobnicate'"))
        #expect(!far.contains("did you mean"), "a suggestion for a word unlike any command: \(far)")
    }

    @Test func unknownSubcommandSuggestsWithinItsGroup() throws {
        let sandbox = try Sandbox()
        let line = expectUsageError(try sandbox.run("types", "lsit"), help: "formulary types --help")
        #expect(line == "formulary: error: unknown command 'types lsit'; did you mean 'types list'?")
    }

    @Test func unknownOptionSuggestsTheNearestOne() throws {
        let sandbox = try Sandbox()
        let line = expectUsageError(try sandbox.run("check", "--frmat", "json", "cvv", "123"), help: "formulary check --help")
        #expect(line == "formulary: error: unknown option '--frmat'; did you mean '--format'?")
        // An option another command has is still unknown here.
        let other = expectUsageError(try sandbox.run("format", "--live", "cvv", "123"), help: "formulary format --help")
        #expect(other.contains("unknown option '--live'"))
    }

    @Test func missingAndExtraArguments() throws {
        let sandbox = try Sandbox()
        let none = expectUsageError(try sandbox.run("check"), help: "formulary check --help")
        #expect(none.contains("missing TYPE and at least one VALUE"), "\(none)")
        #expect(none.contains("usage: formulary check TYPE[(PARAMS)] VALUE..."), "\(none)")
        expectUsageError(try sandbox.run("check", "credit-card"), help: "formulary check --help")
        let extra = expectUsageError(try sandbox.run("types", "show", "age", "cvv"), help: "formulary types show --help")
        #expect(extra.contains("unexpected argument 'cvv'"), "\(extra)")
        let value = expectUsageError(try sandbox.run("check", "cvv", "123", "--today"), help: "formulary check --help")
        #expect(value.contains("'--today' needs a value"), "\(value)")
        let flagValue = expectUsageError(try sandbox.run("check", "--live=yes", "cvv", "1"), help: "formulary check --help")
        #expect(flagValue.contains("takes no value"), "\(flagValue)")
    }

    @Test func badFormatNamesTheOfferedOnes() throws {
        let sandbox = try Sandbox()
        let line = expectUsageError(try sandbox.run("--format", "xml", "check", "cvv", "123"), help: "formulary check --help")
        #expect(line == "formulary: error: this command does not offer --format xml; use one of: text, json")
        // html exists, but not for check.
        let html = expectUsageError(try sandbox.run("check", "cvv", "123", "--format=html"), help: "formulary check --help")
        #expect(html.contains("--format html"))
    }

    @Test func badTodayIsAUsageError() throws {
        let sandbox = try Sandbox()
        for bad in ["2026-13-01", "2026-02-30", "yesterday", "29/11/2026"] {
            let result = try sandbox.run("--today", bad, "check", "exp-date", "12/27")
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty)
            #expect(result.errorLines.first?.hasPrefix("formulary: error: --today") == true, "\(result)")
            #expect(result.stderr.contains("YYYY-MM-DD"), "\(result)")
            #expect(result.errorLines.last?.hasPrefix("See 'formulary") == true, "\(result)")
        }
        // A bad FORMULARY_TODAY is reported as such (not as a bad option).
        let env = try sandbox.run(["check", "exp-date", "12/27"], environment: ["FORMULARY_TODAY": "soon"])
        #expect(env.status == 2, "\(env)")
        #expect(env.stderr.contains("FORMULARY_TODAY"), "\(env)")
    }

    @Test func valuesStartingWithADashNeedDoubleDash() throws {
        let sandbox = try Sandbox()
        let without = expectUsageError(try sandbox.run("check", "age", "-3"), help: "formulary check --help")
        #expect(without.contains("unknown option '-3'"), "\(without)")
        #expect(without.contains("'--'"), "the message should say how to pass the value: \(without)")

        let with = try sandbox.run("check", "decimal", "--", "-2.5", "--live")
        #expect(with.status == 1, "\(with)")   // "--live" is not a number
        let lines = with.outputLines
        #expect(lines.count == 2, "\(with)")
        #expect(lines.first?.hasPrefix("valid") == true, "\(with)")
        #expect(lines.first?.contains("\"-2.5\"") == true, "\(with)")
        // After '--', '--live' is a value, not the flag.
        #expect(lines.last?.hasPrefix("invalid") == true, "\(with)")
        #expect(lines.last?.contains("\"--live\"") == true, "\(with)")
    }
}
