import Foundation
import Testing

/// `validate`, then what the other commands show of its results: `entries list/show`,
/// `history`, `report`; and that a secure value reaches none of them.
@Suite struct ValidationCommandTests {
    @Test(arguments: TestBackend.all) func validateThenInspectAndFix(_ backend: TestBackend) throws {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        // Bob's cvv (4 digits, so invalid) is a secret that must not leak through a failure.
        let secret = "9876"
        try sandbox.write("first.csv", """
            name,email,age,card,cvv
            Ada,ada@example.com,36,4111111111111111,123
            Bob,bob@example.com,17,4111111111111112,\(secret)

            """)
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "first.csv")

        let validate = try sandbox.run("validate")
        #expect(validate.status == 1, "an invalid entry: \(validate)")
        #expect(validate.stdout.hasPrefix("Run 1 complete: 2 entries"), "\(validate)")

        let failing = try sandbox.run("entries", "list", "--failing")
        #expect(failing.status == 0, "\(failing)")
        #expect(failing.outputLines.count == 2, "only Bob: \(failing)")
        #expect(failing.outputLines.last?.contains("bob@example.com") == true, "\(failing)")
        #expect(failing.outputLines.last?.hasSuffix("invalid (run 1: 3 errors)") == true, "\(failing)")
        let all = try sandbox.run("entries", "list")
        #expect(all.outputLines.contains { $0.contains("ada@example.com") && $0.hasSuffix("valid (run 1)") }, "\(all)")

        let bobID = try #require(try sandbox.entries().first { $0["key"] as? String == "bob@example.com" }?["id"] as? Int)
        let history = try sandbox.run("history", String(bobID))
        #expect(history.status == 0, "\(history)")
        #expect(history.stdout.contains("range"), "\(history)")
        #expect(history.stdout.contains("luhn"), "\(history)")

        let report = try sandbox.run("report", "--by", "field")
        #expect(report.status == 0, "\(report)")
        #expect(report.stdout.contains("cvv"), "\(report)")
        let badBy = try sandbox.run("report", "--by", "colour")
        #expect(badBy.status == 2, "\(badBy)")

        // The secret appears nowhere: not in any report format, history, export or audit.
        var outputs = [validate, failing, history, report]
        for format in ["text", "json", "csv"] {
            outputs.append(try sandbox.run("report", "--by", "entry", "--format", format))
        }
        outputs.append(try sandbox.run("--format", "json", "validate"))
        outputs.append(try sandbox.run("--format", "json", "history", String(bobID)))
        outputs.append(try sandbox.run("--format", "json", "entries", "show", String(bobID)))
        outputs.append(try sandbox.run("--format", "json", "audit"))
        outputs.append(try sandbox.run("export"))
        let html = try sandbox.run("report", "--format", "html", "--output", "report.html")
        #expect(html.status == 0, "\(html)")
        let page = try String(contentsOfFile: sandbox.path("report.html"), encoding: .utf8)
        #expect(page.contains("<html") || page.contains("<!DOCTYPE"), "not a page")
        #expect(!page.contains(secret), "the HTML report shows the secure value")
        for output in outputs {
            // Hashes and times are left out: "9876" turns up inside a SHA-256 now and then.
            #expect(!withoutTimesAndHashes(output.stdout).contains(secret) && !withoutTimesAndHashes(output.stderr).contains(secret),
                    "\(output)")
        }

        // Fix Bob with a keyed import; the next run passes and the history keeps both.
        try sandbox.write("fix.csv", "name,email,age,card,cvv\nBob,bob@example.com,18,4111111111111111,987\n")
        let fix = try sandbox.run("import", "--form", "signup", "--key", "email", "fix.csv")
        #expect(fix.stdout.contains("1 updated"), "\(fix)")
        let second = try sandbox.run("validate")
        #expect(second.status == 0, "\(second)")
        #expect(try sandbox.run("entries", "list", "--failing").outputLines.count == 1, "only the header")
        let after = try sandbox.run("--format", "json", "history", String(bobID))
        #expect(after.status == 0, "\(after)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        #expect(object["current_version"] as? Int == 2)
        let runs = try #require(object["runs"] as? [[String: Any]], "\(after)")
        // Runs 1 and 2 (the JSON validate above) judged version 1, run 3 the fixed one.
        #expect(runs.map { $0["run"] as? Int } == [1, 2, 3])
        #expect(runs.map { $0["verdict"] as? String } == ["invalid", "invalid", "valid"])
        #expect(runs.map { $0["entry_version"] as? Int } == [1, 1, 2])
        #expect((runs.first?["failures"] as? [[String: Any]])?.compactMap { $0["rule"] as? String }.sorted()
                == ["length", "luhn", "range"])   // the cvv's length: cvv(digits:) has no mask
        let comparison = try sandbox.run("report")
        #expect(comparison.stdout.contains("0 newly failing, 1 fixed"), "\(comparison)")
    }
}

/// `validate --all`, `--max-failing PCT`, and what an incremental run says of itself.
@Suite struct ValidateThresholdAndIncrementalTests {
    /// Four entries, one invalid (25%).
    func sandbox(_ backend: TestBackend) throws -> Sandbox {
        let sandbox = try Sandbox(backend: backend)
        try sandbox.databaseWithSignupForm()
        try sandbox.write("people.csv", """
            name,email,age
            Ada,ada@example.com,36
            Bob,bob@example.com,17
            Cy,cy@example.com,40
            Di,di@example.com,50

            """)
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "people.csv")
        return sandbox
    }

    @Test(arguments: TestBackend.all) func maxFailingExitsOneOnlyAboveTheShare(_ backend: TestBackend) throws {
        let sandbox = try sandbox(backend)
        #expect(try sandbox.run("validate").status == 1, "by default any invalid entry fails the run")
        let within = try sandbox.run("validate", "--max-failing", "25")
        #expect(within.status == 0, "exactly 25% is not more than 25%: \(within)")
        #expect(within.stdout.contains("1 of 4 entries invalid (25.00 %): within --max-failing 25 %."), "\(within)")
        let above = try sandbox.run("validate", "--max-failing", "24.99")
        #expect(above.status == 1, "\(above)")
        #expect(above.stdout.contains("more than --max-failing 24.99 %."), "\(above)")
        #expect(try sandbox.run("validate", "--max-failing", "0").status == 1)
        let json = try sandbox.run("--format", "json", "validate", "--max-failing", "30")
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["max_failing"] as? Double == 30 && object["max_failing_exceeded"] as? Bool == false, "\(object)")
    }

    @Test(arguments: TestBackend.all) func badPercentagesAreUsageErrors(_ backend: TestBackend) throws {
        let sandbox = try sandbox(backend)
        for (text, why) in [("101", "(it is more than 100)"), ("5%", "is not a percentage;"), ("-1", "is not a percentage;"),
                            ("abc", "is not a percentage;"), ("1.1234567", "(more than 6 decimals)")] {
            let result = try sandbox.run("validate", "--max-failing", text)
            #expect(result.status == 2, "\(text): \(result)")
            #expect(result.stderr.hasPrefix("formulary: error: --max-failing '\(text)' "), "\(result)")
            #expect(result.stderr.contains(why) && result.stderr.contains("use a number from 0 to 100"), "\(result)")
            #expect(result.stdout.isEmpty)
        }
        let missing = try sandbox.run("validate", "--max-failing")
        #expect(missing.status == 2, "\(missing)")
        // Nothing was validated by the refused commands.
        let runs = try sandbox.run("--format", "json", "audit")
        #expect(!runs.stdout.contains("\"validate\""), "\(runs)")
    }

    @Test(arguments: TestBackend.all) func aSecondRunCarriesForwardAndSaysSo(_ backend: TestBackend) throws {
        let sandbox = try sandbox(backend)
        _ = try sandbox.run("validate")
        try sandbox.write("change.csv", """
            name,email,age
            Bob,bob@example.com,18
            Eve,eve@example.com,30

            """)
        try sandbox.mustRun("import", "--form", "signup", "--key", "email", "change.csv")
        let second = try sandbox.run("validate")
        #expect(second.status == 0, "Bob is fixed: \(second)")
        #expect(second.stdout.hasPrefix("Run 2 complete: 5 entries in "), "\(second)")
        #expect(second.stdout.contains("(2 judged at "), "\(second)")
        #expect(second.stdout.contains("3 carried forward from run 1), today "), "\(second)")
        let json = try sandbox.run("--format", "json", "validate")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["entries_judged"] as? Int == 0 && object["entries_carried"] as? Int == 5, "\(object)")
        let form = try #require((object["forms"] as? [[String: Any]])?.first)
        #expect(form["carried_from"] as? Int == 2 && form["entries_carried"] as? Int == 5, "\(form)")
        let all = try sandbox.run("--format", "json", "validate", "--all")
        let full = try #require(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        #expect(full["entries_judged"] as? Int == 5 && full["entries_carried"] as? Int == 0, "\(full)")
        #expect(((full["forms"] as? [[String: Any]])?.first?["carried_from"]) is NSNull, "\(full)")
        let verify = try sandbox.run("audit", "verify")
        #expect(verify.status == 0, "\(verify)")
    }
}
