import Foundation
import Testing

/// What a user sees on a terminal: the progress line of `import` and `validate` (erased
/// before anything else is printed, a percentage of the file when its size is known),
/// and colour (only where a terminal can show it, `NO_COLOR` honoured as no-color.org
/// says). The "is a terminal" paths run the binary on a pseudo-terminal (see
/// `PseudoTerminal`).
@Suite struct TerminalTests {
    static let records = 25_000

    /// A database with the sign-up form and a CSV file of `records` sign-ups; the
    /// `broken` variant has a malformed record at the very end.
    static func signups(broken: Bool = false) throws -> Sandbox {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        var csv = "name,email\n"
        for i in 0..<records { csv += "Person \(letters(i)),p\(i)@example.com\n" }
        if broken { csv += "\"unterminated,x@example.com\n" }
        try sandbox.write("signups.csv", csv)
        return sandbox
    }

    /// `i` in base 26 with letters (`Ba`, `Bb`…): names may not hold digits.
    static func letters(_ i: Int) -> String {
        var n = i, out = ""
        repeat {
            out = String(UnicodeScalar(UInt8(97 + n % 26))) + out
            n /= 26
        } while n > 0
        return out.prefix(1).uppercased() + out.dropFirst()
    }

    static let xterm: [String: String?] = ["TERM": "xterm", "NO_COLOR": nil]

    @Test func importProgressShowsAPercentageAndIsErasedBeforeTheSummary() throws {
        let sandbox = try Self.signups()
        let output = try PseudoTerminal.run(["import", "--form", "signup", "signups.csv"], in: sandbox,
                                            environment: Self.xterm)
        #expect(output.status == 0, "\(output)")
        let text = output.text
        #expect(text.contains(/importing signups\.csv: \d{1,3}% \([0-9,]+ records\)/), "a percentage of the file: \(output)")
        let summary = try #require(text.range(of: "Imported 25,000 records into signup"), "\(output)")
        let beforeSummary = text[..<summary.lowerBound]
        let lastProgress = try #require(beforeSummary.range(of: "importing", options: .backwards), "\(output)")
        #expect(beforeSummary[lastProgress.upperBound...].contains("\r\u{1B}[K"),
                "the progress line is erased before the summary: \(output)")
        #expect(TerminalScreen(text).visibleLines == ["Imported 25,000 records into signup: 25,000 added."], "\(output)")
    }

    @Test func importProgressFromAPipeCountsRecordsOnly() throws {
        let sandbox = try Self.signups()
        let output = try PseudoTerminal.run(["import", "--form", "signup", "--input", "csv", "-"], in: sandbox,
                                            environment: Self.xterm, stdinFile: "signups.csv", stdinPipe: true)
        #expect(output.status == 0, "\(output)")
        #expect(output.text.contains(/importing -: [0-9,]+ records/), "\(output)")
        #expect(!output.text.contains("%"), "no size, no percentage: \(output)")
        #expect(TerminalScreen(output.text).visibleLines == ["Imported 25,000 records into signup: 25,000 added."], "\(output)")
    }

    @Test func anErrorErasesTheProgressLineFirst() throws {
        let sandbox = try Self.signups(broken: true)
        let output = try PseudoTerminal.run(["import", "--form", "signup", "signups.csv"], in: sandbox,
                                            environment: Self.xterm)
        #expect(output.status == 2, "\(output)")
        #expect(output.text.contains("importing"), "progress was shown before the bad line: \(output)")
        let screen = TerminalScreen(output.text).visibleLines
        #expect(screen.first?.hasPrefix("formulary: error: signups.csv:25002") == true, "\(screen)")
        #expect(!screen.contains { $0.contains("importing") }, "\(screen)")
    }

    @Test func validateProgressIsErasedBeforeTheSummary() throws {
        let sandbox = try Self.signups()
        try sandbox.mustRun("import", "--form", "signup", "signups.csv")
        let output = try PseudoTerminal.run(["validate"], in: sandbox, environment: ["TERM": "xterm"])
        #expect(output.status == 0, "\(output)")
        #expect(output.text.contains(/validated [0-9,]+ entries \(\d{1,3}%\)/), "\(output)")
        let screen = TerminalScreen(output.text).visibleLines
        #expect(screen.first?.hasPrefix("Run 1 complete: 25,000 entries") == true, "\(screen)")
        #expect(!screen.contains { $0.contains("validated") }, "\(screen)")
    }

    /// `report` on a large run is silent while the database makes its passes over the
    /// failures: a terminal is told which pass, and the line is gone before the report.
    @Test func reportProgressNamesEachPassAndIsErasedBeforeTheReport() throws {
        let sandbox = try Self.signups()
        try sandbox.write("bad.csv", "name,email\nZed,zed@example\n")
        try sandbox.mustRun("import", "--form", "signup", "signups.csv")
        try sandbox.mustRun("import", "--form", "signup", "bad.csv")
        _ = try sandbox.run("validate")
        let output = try PseudoTerminal.run(["report"], in: sandbox, environment: Self.xterm)
        #expect(output.status == 0, "\(output)")
        for pass in ["report of run 1: comparing form signup with no earlier run…",
                     "report of run 1: counting the most frequent failing values…",
                     "report of run 1: grouping and writing the failures…"] {
            #expect(output.text.contains(pass), "\(output)")
        }
        let screen = TerminalScreen(output.text).visibleLines
        #expect(screen.first?.hasPrefix("Run 1  complete") == true, "\(screen)")
        #expect(screen.contains("entries   25,001 checked, 1 failing (0.0%)"), "\(screen)")
        #expect(!screen.contains { $0.contains("report of run") }, "\(screen)")
        // To a file, the same passes; not on a pipe (or a file) of standard error.
        let toFile = try PseudoTerminal.run(["report", "--format", "csv", "--output", "r.csv"], in: sandbox,
                                            environment: Self.xterm)
        #expect(toFile.text.contains("report of run 1: grouping and writing the failures…"), "\(toFile)")
        #expect(TerminalScreen(toFile.text).visibleLines == ["Report of run 1 written to r.csv"], "\(toFile)")
        let piped = try sandbox.run(["report"], environment: ["TERM": "xterm"])
        #expect(!piped.stderr.contains("report of run"), "\(piped)")
    }

    /// `report` on a terminal starts with the run's facts, before the database's first pass
    /// over the failures, and shows each part as it is made: the progress line of a pass
    /// comes after what was written before it, and is erased by what the pass gives.
    @Test func reportShowsTheFactsFirstThenEachPartAfterItsPass() throws {
        let sandbox = try Sandbox()
        try sandbox.databaseWithSignupForm()
        try sandbox.write("bad.csv", "name,email\nZed,zed@example\nAda,ada@example.com\n")
        try sandbox.mustRun("import", "--form", "signup", "bad.csv")
        _ = try sandbox.run("validate")
        let output = try PseudoTerminal.run(["report"], in: sandbox, environment: Self.xterm)
        #expect(output.status == 0, "\(output)")
        let text = output.text
        func at(_ part: String) throws -> String.Index {
            try #require(text.range(of: part), "\(part) in \(output)").lowerBound
        }
        // The words of the report, not its colours (`Run 1` and `RULE` are bold).
        let facts = try at("Run 1"), grouping = try at("report of run 1: grouping and writing the failures…")
        let table = try at("RULE"), counting = try at("report of run 1: counting the most frequent failing values…")
        let values = try at("Most frequent failing values"), comparing = try at("report of run 1: comparing form signup")
        let comparison = try at("No earlier run judged form signup")
        #expect(facts < grouping && grouping < table && table < counting && counting < values
                && values < comparing && comparing < comparison, "\(output)")
        let screen = TerminalScreen(text).visibleLines
        #expect(screen.first == "Run 1  complete", "\(screen)")
        #expect(!screen.contains { $0.contains("report of run") }, "\(screen)")
    }

    /// Colour needs a terminal that shows it: `TERM=dumb` (or no TERM) gets none, nor a
    /// progress line it could not erase. `NO_COLOR` turns colour off only when it is set to
    /// something: `NO_COLOR=` (empty) keeps it (no-color.org).
    @Test func colourFollowsTermAndNoColor() throws {
        let sandbox = try Sandbox()
        let check = ["check", "credit-card", "4111 1111 1111 1111"]
        let green = "\u{1B}[32mvalid"
        for (environment, coloured) in [(["TERM": "xterm", "NO_COLOR": nil], true),
                                         (["TERM": "xterm", "NO_COLOR": ""], true),
                                         (["TERM": "xterm", "NO_COLOR": "1"], false),
                                         (["TERM": "dumb", "NO_COLOR": nil], false),
                                         (["TERM": nil, "NO_COLOR": nil], false)] as [([String: String?], Bool)] {
            let output = try PseudoTerminal.run(check, in: sandbox, environment: environment)
            #expect(output.status == 0, "\(output)")
            #expect(output.text.contains(green) == coloured, "\(environment): \(output)")
            if !coloured { #expect(!output.text.contains("\u{1B}"), "\(environment): \(output)") }
            let error = try PseudoTerminal.run(["check", "no-such-type", "1"], in: sandbox, environment: environment)
            #expect(error.text.contains("\u{1B}[31merror") == coloured, "\(environment): \(error)")
        }
        // Not a terminal: no colour whatever the environment says.
        let piped = try sandbox.run(check, environment: ["TERM": "xterm", "NO_COLOR": nil])
        #expect(!piped.stdout.contains("\u{1B}"), "\(piped)")
    }

    @Test func aDumbTerminalGetsNoProgressLine() throws {
        let sandbox = try Self.signups()
        let output = try PseudoTerminal.run(["import", "--form", "signup", "signups.csv"], in: sandbox,
                                            environment: ["TERM": "dumb", "NO_COLOR": nil])
        #expect(output.status == 0, "\(output)")
        #expect(!output.text.contains("\u{1B}") && !output.text.contains("importing"), "\(output)")
        #expect(output.text == "Imported 25,000 records into signup: 25,000 added.\r\n", "\(output)")
    }
}
