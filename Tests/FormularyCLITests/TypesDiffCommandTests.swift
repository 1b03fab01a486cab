import Foundation
import Testing

/// `types diff OLD NEW` as a user runs it: the text and JSON outputs, each kind of operand,
/// the exit statuses and the unhappy paths.
@Suite struct TypesDiffCommandTests {
    /// The built-in `age`, for adults only.
    static let adultAge = """
        # Adults only.
        field age
        label "Age"
        param min = 18
        param max = 150
        normalize trim
        integer              message "Age is a whole number of years, e.g. 42"
        range $min...$max    message "Age must be between {min} and {max}"

        """

    @Test func aNarrowedRangeIsASubsetWithTheShortestValueItRefuses() throws {
        let sandbox = try Sandbox()
        try sandbox.write("my-types/age.field", Self.adultAge)
        let result = try sandbox.run("types", "diff", "age", "my-types/age.field")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let lines = result.outputLines
        #expect(lines.first?.hasPrefix("OLD:  age  built-in (plugins/age.field)  version 6fa0ee018778") == true, "\(result)")
        #expect(lines.dropFirst(2) == [
            "",
            "unchanged: integer",
            "range: NEW accepts a subset (range 0...150 → range 18...150)",
            "type: NEW accepts a subset",
            "newly rejected: \"0\"",
            "newly accepted: none",
        ], "\(result)")
        // The other way round, the same values change places.
        let back = try sandbox.run("types", "diff", "my-types/age.field", "age")
        #expect(back.outputLines.suffix(3) == ["type: NEW accepts a superset", "newly rejected: none",
                                               "newly accepted: \"0\""], "\(back)")
    }

    @Test func jsonSaysTheSame() throws {
        let sandbox = try Sandbox()
        try sandbox.write("my-types/age.field", Self.adultAge)
        let result = try sandbox.run("--format", "json", "types", "diff", "age", "my-types/age.field")
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["relation"] as? String == "subset")
        let rejected = try #require(json["newly_rejected"] as? [String: Any])
        #expect(rejected["status"] as? String == "some")
        #expect(rejected["witness"] as? String == "0")
        #expect(rejected["shortest"] as? Bool == true)
        let accepted = try #require(json["newly_accepted"] as? [String: Any])
        #expect(accepted["status"] as? String == "none")
        #expect(accepted["witness"] is NSNull)
        let rules = try #require(json["rules"] as? [[String: Any]])
        #expect(rules.map { $0["rule"] as? String } == ["integer", "range"])
        #expect(rules.map { $0["relation"] as? String } == ["same", "subset"])
        #expect(rules[1]["old"] as? String == "range 0...150" && rules[1]["new"] as? String == "range 18...150")
        let old = try #require(json["old"] as? [String: Any])
        #expect(old["type"] as? String == "age" && old["source"] as? String == "built-in (plugins/age.field)")
        #expect((old["version"] as? String)?.count == 64)
        #expect(json["today"] as? String == "2026-11-29")
        #expect(json["set_aside"] as? [String] == [])
        #expect(json["secure"] as? Bool == false)
        #expect(json["normalization"] is NSNull)
    }

    @Test func twoFilesOfOneTypeAndAReferenceWithArguments() throws {
        let sandbox = try Sandbox()
        try sandbox.write("old/zip.field", "field zip\nnormalize trim\npattern /[0-9]{5}(?:-[0-9]{4})?/\n")
        try sandbox.write("new/zip.field", "field zip\nnormalize trim uppercase\npattern /[0-9]{5}/\n")
        let files = try sandbox.run("types", "diff", "old/zip.field", "new/zip.field")
        #expect(files.status == 0, "\(files)")
        #expect(files.outputLines.contains("normalize: trim → trim uppercase"), "\(files)")
        #expect(files.outputLines.contains("newly rejected: \"00000-0000\""), "\(files)")
        let reference = try sandbox.run("types", "diff", "age", "age(min: 21)")
        #expect(reference.outputLines.contains("newly rejected: \"0\""), "\(reference)")
        #expect(reference.outputLines.contains { $0.hasPrefix("NEW:  age(min: 21)") }, "\(reference)")
    }

    @Test func datesAreComparedForTodayAndSaySo() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("types", "diff", "exp-date", #"exp-date(latest: "today+10y")"#)
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.contains("type: NEW accepts a subset (dates as of today, 2026-11-29)"), "\(result)")
        // December 2036 is more than ten years ahead of 29 November 2026.
        let later = try sandbox.run("--today", "2027-01-15", "types", "diff", "exp-date", #"exp-date(latest: "today+10y")"#)
        #expect(later.outputLines.contains("type: NEW accepts a subset (dates as of today, 2027-01-15)"), "\(later)")
        let rejected = try #require(result.outputLines.first { $0.hasPrefix("newly rejected: ") })
        #expect(rejected.hasSuffix("(found among candidates; a shorter one may exist)"), "\(result)")
    }

    @Test func aSecureTypeNeverShowsItsValues() throws {
        let sandbox = try Sandbox()
        try sandbox.write("pin.field", "field pin\nsecure\nnormalize strip-spaces\nlength 4...8\ncharset digits\n")
        let result = try sandbox.run("types", "diff", "cvv", "pin.field")
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.contains("newly accepted: some values (not shown: the type is secure)"), "\(result)")
        let json = try sandbox.run("--format", "json", "types", "diff", "cvv", "pin.field")
        #expect(json.stdout.contains(#""newly_accepted":{"status":"some","witness":null,"shortest":false}"#), "\(json)")
        #expect(json.stdout.contains(#""secure":true"#), "\(json)")
        // No digits anywhere but in versions: no value leaks.
        for line in result.outputLines where !line.hasPrefix("OLD:") && !line.hasPrefix("NEW:") {
            #expect(!line.contains("\"0"), "\(line)")
        }
    }

    @Test func aStoredVersionIsNamedByItsFirstDigits() throws {
        let sandbox = try Sandbox()
        try sandbox.mustRun("init")
        try sandbox.write("my-types/age.field", Self.adultAge)
        // Stricter than the built-in (no minors), which the default policy refuses unless meant.
        try sandbox.mustRun("types", "add", "--allow-breaking", "--reason", "adults only", "my-types/age.field")
        let history = try sandbox.run("--format", "json", "types", "history", "age")
        let hash = try #require((try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]])?
            .first?["hash"] as? String)
        let result = try sandbox.run("types", "diff", "age@\(hash.prefix(8))", "age(min: 21)")
        #expect(result.status == 0, "\(result)")
        #expect(result.outputLines.first?.hasPrefix("OLD:  age@\(hash.prefix(8))  stored (database, ") == true, "\(result)")
        #expect(result.outputLines.contains("newly rejected: \"18\""), "\(result)")
        let short = try sandbox.run("types", "diff", "age@\(hash.prefix(3))", "age")
        #expect(short.status == 2)
        #expect(short.stderr.hasPrefix("formulary: error: give at least 4 digits of the version; the database keeps \(hash.prefix(12))"),
                "\(short)")
        let none = try sandbox.run("types", "diff", "age@ffffff", "age")
        #expect(none.status == 2)
        #expect(none.stderr.contains("no version of 'age' starts with 'ffffff'"), "\(none)")
    }

    @Test func unhappyPathsSayWhatIsWrong() throws {
        let sandbox = try Sandbox()
        let missing = try sandbox.run("types", "diff", "age", "missing.field")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr == "formulary: error: missing.field: No such file or directory\n", "\(missing)")
        #expect(missing.stdout.isEmpty)
        let unknown = try sandbox.run("types", "diff", "agee", "age")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.stderr.hasPrefix("formulary: error: unknown type 'agee'; did you mean 'age'?"), "\(unknown)")
        try sandbox.write("broken.field", "field broken\nrange 5...1\n")
        let broken = try sandbox.run("types", "diff", "age", "broken.field")
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.stderr.contains("broken.field:2:1: error:"), "\(broken)")
        try sandbox.write("signup.form", "form signup\nfield age age\n")
        let form = try sandbox.run("types", "diff", "age", "signup.form")
        #expect(form.status == 2, "\(form)")
        let noDatabase = try sandbox.run("types", "diff", "age@1234", "age")
        #expect(noDatabase.status == 3, "\(noDatabase)")
        let usage = try sandbox.run("types", "diff", "age")
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.stderr.hasPrefix("formulary: error: missing NEW after 'age'; usage: formulary types diff OLD NEW"), "\(usage)")
        let tooMany = try sandbox.run("types", "diff", "age", "age", "age")
        #expect(tooMany.status == 2, "\(tooMany)")
    }

    @Test func theHelpSaysWhatIsDecidedAndTheExitStatus() throws {
        let sandbox = try Sandbox()
        let help = try sandbox.run("types", "diff", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Compares two versions of a type"), "\(help)")
        #expect(help.stdout.contains("USAGE: formulary types diff OLD NEW"), "\(help)")
        #expect(help.stdout.contains("Exit status: 0 when the comparison was made"), "\(help)")
    }
}
