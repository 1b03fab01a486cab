import Foundation
import Testing

/// `runs list` and what `report` shows of the data: values, sources, the failing share,
/// the most frequent values, the change against the previous run, and `entries list
/// --failing` streaming in id order.
@Suite struct RunsAndReportCommandsTests {
    static let csv = """
        name,email,age,card,cvv
        Ada,ada@example.com,36,4111 1111 1111 1111,123
        Bob,not-an-email,17,4111 1111 1111 1112,12
        Cy,cy@example.com,40,4111 1111 1111 1112,123

        """

    func twoRuns(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("people.csv", Self.csv)
        try sandbox.mustRun("import", "--form", "signup", "people.csv")
        _ = try sandbox.run("validate")
        try sandbox.write("more.csv", "name,email,age,card,cvv\nDi,di@example.com,50,4111 1111 1111 1112,123\n")
        try sandbox.mustRun("import", "--form", "signup", "more.csv")
        _ = try sandbox.run("validate")
        return sandbox
    }

    @Test(arguments: TestBackend.all) func runsListShowsEveryRunNewestFirst(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        let none = try sandbox.run("runs", "list")
        #expect(none.status == 0 && none.stdout == "No validation run yet; run 'formulary validate' first.\n", "\(none)")
        #expect(try sandbox.run("--format", "json", "runs", "list").stdout == "[]\n")

        let ran = try twoRuns(backend)
        let text = try ran.run("runs", "list")
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first == "ID  STARTED                   ACTOR   FORMS   CHECKED  FAILING    STATUS")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("2 ") && lines[1].contains("4        3 (75.0%)  complete"), "\(lines[1])")
        #expect(lines[2].hasPrefix("1 ") && lines[2].contains("3        2 (66.7%)  complete"), "\(lines[2])")

        let json = try ran.run("--format", "json", "runs", "list", "--limit", "1")
        let runs = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs[0]["id"] as? Int == 2)
        #expect(runs[0]["forms"] as? [String] == ["signup"])
        #expect(runs[0]["entries_checked"] as? Int == 4 && runs[0]["entries_failing"] as? Int == 3)
        #expect(runs[0]["failing_percent"] as? Double == 75)
        #expect(runs[0]["status"] as? String == "complete")

        let unknownForm = try ran.run("runs", "list", "--form", "nope")
        #expect(unknownForm.status == 0 && unknownForm.stdout.hasPrefix("No validation run yet"), "\(unknownForm)")
        let badLimit = try ran.run("runs", "list", "--limit", "x")
        #expect(badLimit.status == 2, "\(badLimit)")
    }

    @Test(arguments: TestBackend.all) func reportsShowValuesSourcesAndChanges(_ backend: TestBackend) throws {
        let sandbox = try twoRuns(backend)
        let text = try sandbox.run("report")
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("entries   4 checked, 3 failing (75.0%)"), "\(text.stdout)")
        #expect(text.stdout.contains("luhn     3         3        3       0         2 → 3, +1"), "\(text.stdout)")
        #expect(text.stdout.contains("\"4111 1111 1111 1112\" ×3"), "\(text.stdout)")
        #expect(!text.stdout.contains("\"12\""), "a secure cvv value is shown:\n\(text.stdout)")

        let json = try sandbox.run("--format", "json", "report", "--by", "field")
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let failures = try #require(doc["failures"] as? [[String: Any]])
        let bob = failures.filter { $0["entry_id"] as? Int == 2 }
        #expect(bob.allSatisfy { $0["source"] as? String == "people.csv:3" })
        #expect(bob.first { $0["field"] as? String == "cvv" }?["value"] as? String == "•••")
        #expect(bob.first { $0["field"] as? String == "email" }?["value"] as? String == "not-an-email")
        #expect(failures.first { $0["entry_id"] as? Int == 4 }?["source"] as? String == "more.csv:2")

        let csv = try sandbox.run("--format", "csv", "report")
        #expect(csv.stdout.contains(",not-an-email,people.csv:3\r\n"), "\(csv.stdout)")

        let html = try sandbox.run("report", "--format", "html", "--output", "r.html")
        #expect(html.status == 0, "\(html)")
        let page = try String(contentsOf: sandbox.root.appendingPathComponent("r.html"), encoding: .utf8)
        #expect(page.contains("<a href=\"formulary-report-run-1.html\">1</a>"))
        #expect(page.contains("Failing share of the last 2 runs"))
        #expect(page.contains("people.csv:3"))
    }

    /// `report --format html > page.html` writes the page there (it wrote a line saying
    /// where a file went, and exited 0); on a terminal the page goes to its default file.
    @Test func htmlGoesToStandardOutputUnlessThatIsATerminal() throws {
        let sandbox = try twoRuns(.sqlite)
        let piped = try sandbox.run("report", "--format", "html")
        #expect(piped.status == 0, "\(piped)")
        #expect(piped.stdout.hasPrefix("<!DOCTYPE html>"), "\(piped.stdout.prefix(80))")
        #expect(piped.stdout.contains("people.csv:3") && piped.stdout.hasSuffix("</html>\n"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("formulary-report-run-2.html")))

        let terminal = try PseudoTerminal.run(["report", "--format", "html"], in: sandbox)
        #expect(terminal.status == 0, "\(terminal)")
        #expect(TerminalScreen(terminal.text).visibleLines == ["Report of run 2 written to formulary-report-run-2.html"],
                "\(terminal)")
        let page = try String(contentsOfFile: sandbox.path("formulary-report-run-2.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("people.csv:3"))
    }

    @Test(arguments: TestBackend.all) func failingEntriesStreamInIDOrder(_ backend: TestBackend) throws {
        let sandbox = try twoRuns(backend)
        let list = try sandbox.run("entries", "list", "--failing", "--limit", "2")
        #expect(list.status == 0, "\(list)")
        let ids = list.stdout.split(separator: "\n").dropFirst().map { $0.prefix { $0 != " " } }
        #expect(ids == ["2", "3"])
        #expect(list.stderr.contains("2 of 3 failing entries shown"), "\(list)")
        let json = try sandbox.run("--format", "json", "entries", "list", "--failing", "--limit", "0")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["id"] as? Int } == [2, 3, 4])
    }
}
