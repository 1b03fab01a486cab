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

    /// Command lines the parser or a command's typed options refuse, with what each prints
    /// and its exit status, kept in Golden/usage-errors.txt: unknown commands and options,
    /// missing required options and arguments, values that are not of the option's type.
    /// None of them needs a database, and none writes anything to standard output.
    @Test func usageErrorsMatchGolden() throws {
        let sandbox = try Sandbox()
        try sandbox.write("signups.csv", "email\nada@example.com\n")
        let cases: [[String]] = [
            ["frobnicate"], ["chek", "cvv", "123"], ["types", "lsit"],
            ["help", "chek"], ["help", "types", "lsit"], ["help", "check", "cvv"],
            ["check", "--frmat", "json", "cvv", "123"], ["check", "-x", "cvv", "123"], ["format", "--live", "cvv", "1"],
            ["check"], ["check", "credit-card"], ["types", "show", "age", "cvv"], ["types", "lint"],
            ["import"], ["import", "signups.csv"], ["import", "--form", "signup"],
            ["import", "--form", "a", "--form", "b", "signups.csv"], ["validate", "--form"], ["migrate", "--status=yes"],
            ["entries", "list", "--limit", "ten"], ["entries", "list", "--limit=-1"],
            ["report", "--by", "week"], ["report", "--run", "abc"], ["report", "--run", "0"], ["report", "--output="],
            ["import", "--form", "signup", "--input", "xml", "signups.csv"],
            ["audit", "--since", "2026-02-30"], ["audit", "verify", "--head", "abc"],
            ["entries", "show", "abc"], ["history", "0"],
            ["completions"], ["completions", "powershell"], ["completions", "bash", "zsh"],
            ["check", "cvv", "1", "--format", "csv"],
            ["impact"], ["impact", "--format", "csv", "x.field"], ["canonicalize"], ["canonicalize", "--form"],
            ["canonicalize", "--form", "signup", "--dry-run=yes"],
        ]
        var transcript = ""
        for arguments in cases {
            let result = try sandbox.run(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.stdout.isEmpty, "\(result)")
            let shown = arguments.map { $0.isEmpty || $0.hasSuffix("=") ? $0 + "''" : $0 }.joined(separator: " ")
            transcript += "$ formulary \(shown)\n\(result.stderr)exit \(result.status)\n\n"
        }
        Golden.expect(transcript, matches: "usage-errors.txt")
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

    /// Before the command's name, the word after a misspelled option is not taken for the
    /// command: `--formt json types list` is an unknown option, not the unknown command 'json'.
    @Test func unknownOptionBeforeTheCommandIsAnUnknownOption() throws {
        let sandbox = try Sandbox()
        let line = expectUsageError(try sandbox.run("--formt", "json", "types", "list"), help: "formulary --help")
        #expect(line == "formulary: error: unknown option '--formt'; did you mean '--format'?")
        let inGroup = expectUsageError(try sandbox.run("types", "--formt", "json", "list"), help: "formulary types --help")
        #expect(inGroup == "formulary: error: unknown option '--formt'; did you mean '--format'?")
        let far = expectUsageError(try sandbox.run("--frobnicate", "x", "types", "list"), help: "formulary --help")
        #expect(far == "formulary: error: unknown option '--frobnicate'")
        // A command's own option before its name takes its value as it does after it.
        let known = try sandbox.run("--format=json", "types", "list")
        #expect(known.status == 0, "\(known)")
        let before = try sandbox.run("--limit", "1", "runs", "list")
        #expect(!before.stderr.contains("unknown command"), "\(before)")
    }

    @Test func missingAndExtraArguments() throws {
        let sandbox = try Sandbox()
        let none = expectUsageError(try sandbox.run("check"), help: "formulary check --help")
        #expect(none.contains("missing TYPE and at least one VALUE"), "\(none)")
        #expect(none.hasSuffix("; usage: formulary check [--live] TYPE[(PARAMS)] VALUE..."), "\(none)")
        let value = expectUsageError(try sandbox.run("check", "credit-card"), help: "formulary check --help")
        #expect(value == "formulary: error: missing at least one VALUE after 'credit-card'; usage: formulary check [--live] TYPE[(PARAMS)] VALUE...")
        #expect(expectUsageError(try sandbox.run("format", "phone"), help: "formulary format --help")
                .hasPrefix("formulary: error: missing at least one VALUE after 'phone';"))
        let extra = expectUsageError(try sandbox.run("types", "show", "age", "cvv"), help: "formulary types show --help")
        #expect(extra.contains("unexpected argument 'cvv'"), "\(extra)")
        let today = expectUsageError(try sandbox.run("check", "cvv", "123", "--today"), help: "formulary check --help")
        #expect(today.contains("'--today' needs a value"), "\(today)")
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

    /// Every command checks --today and FORMULARY_TODAY, not only those that judge dates:
    /// a bad one is never silently ignored. The message names the option, the value, what
    /// is wrong with the date and the form to write.
    @Test(arguments: TestBackend.all) func badTodayIsAUsageErrorForEveryCommand(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        for arguments in [["entries", "list"], ["audit"], ["report"], ["types", "list"], ["forms", "list"], ["migrate", "--status"]] {
            let option = expectUsageError(try sandbox.run(arguments + ["--today", "2025-02-29"]), help: "formulary --help")
            #expect(option == "formulary: error: --today '2025-02-29' is not a date (February 2025 has 28 days); write it as YYYY-MM-DD, e.g. 2026-11-29")
            let env = expectUsageError(try sandbox.run(arguments, environment: ["FORMULARY_TODAY": "2026-13-01"]), help: "formulary --help")
            #expect(env == "formulary: error: FORMULARY_TODAY '2026-13-01' is not a date (there is no month 13); write it as YYYY-MM-DD, e.g. 2026-11-29")
        }
        // --help and --version still work: they use no date.
        #expect(try sandbox.run(["entries", "list", "--help"], environment: ["FORMULARY_TODAY": "soon"]).status == 0)
        #expect(try sandbox.run(["--version"], environment: ["FORMULARY_TODAY": "soon"]).status == 0)
    }

    /// `audit --since` takes a real date or a real UTC time; anything else is exit 2 naming
    /// the value and the forms to write.
    @Test(arguments: TestBackend.all) func badSinceIsAUsageError(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        let cases: [(String, String)] = [
            ("2026-12-32", " (December 2026 has 31 days)"), ("2026-02-29", " (February 2026 has 28 days)"),
            ("2026-13-01", " (there is no month 13)"), ("2026-00-10", " (there is no month 0)"),
            ("2026-04-00", " (there is no day 0)"), ("2100-02-29", " (February 2100 has 28 days)"),
            ("2026-11-29T24:00", " (there is no hour 24)"), ("2026-11-29T10:60Z", " (there is no minute 60)"),
            ("2026-11-29T10:00:60", " (there is no second 60)"),
            ("2026-11-29T10:00+02:00", " (times are UTC: end it with Z or nothing, not an offset)"),
            ("2026-11-29T10", ""), ("2026-11-29 10:00", ""), ("2026-11-29T10:00:00.1234Z", ""),
            ("last week", ""), ("2026-1-1", ""), ("", ""),
        ]
        for (value, reason) in cases {
            let line = expectUsageError(try sandbox.run("audit", "--since", value), help: "formulary audit --help")
            #expect(line == "formulary: error: --since '\(value)' is not a date or time\(reason); write a date YYYY-MM-DD "
                    + "or a UTC time YYYY-MM-DDTHH:MM[:SS[.mmm]][Z], e.g. 2026-11-29 or 2026-11-29T14:30Z")
        }
        for good in ["2024-02-29", "2000-02-29", "2026-11-29T23:59", "2026-11-29T23:59:59.5Z", "2026-11-29t00:00z"] {
            #expect(try sandbox.run("audit", "--since", good).status == 0, "\(good)")
        }
    }

    /// A time without milliseconds selects the records at that very second: it is compared
    /// in the stored spelling (`…:03.000Z`), not as text (where `…:03.123Z` < `…:03Z`).
    @Test(arguments: TestBackend.all) func sinceATimeIncludesRecordsAtThatSecond(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let at = try #require(try sandbox.auditRecords().first?["at"] as? String)
        let second = String(at.prefix(19))   // 2026-…T10:05:03
        for since in [second + "Z", second, String(second.prefix(16))] {
            let result = try sandbox.run("--format", "json", "audit", "--since", since)
            let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
            #expect(records.count == 1, "--since \(since) misses the record at \(at): \(result)")
        }
    }

    /// An id that is not one says which way it is wrong: not a whole number, or none that
    /// can exist (`0` is a whole number, yet no id).
    @Test(arguments: TestBackend.all) func idsSayWhatIsWrongWithThem(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.initDatabase()
        for command in [["entries", "show"], ["history"]] {
            let help = "formulary \(command.joined(separator: " ")) --help"
            let hint = "(see 'formulary entries list')"
            for zero in ["0", "-1", "-0", "000"] {
                #expect(expectUsageError(try sandbox.run(command + ["--", zero]), help: help)
                        == "formulary: error: there is no entry \(zero): entry ids start at 1 \(hint)")
            }
            for text in ["abc", "1.5", "1e3", "", "0x10", "١"] {
                #expect(expectUsageError(try sandbox.run(command + ["--", text]), help: help)
                        == "formulary: error: '\(text)' is not an entry id; ids are whole numbers, 1 or more \(hint)")
            }
            #expect(expectUsageError(try sandbox.run(command + ["99999999999999999999"]), help: help)
                    == "formulary: error: there is no entry 99999999999999999999: that is larger than any entry id \(hint)")
        }
        let run = expectUsageError(try sandbox.run("report", "--run", "0"), help: "formulary report --help")
        #expect(run == "formulary: error: there is no run 0: run ids start at 1 (use the number 'validate' printed, or leave --run out for the newest run)")
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
