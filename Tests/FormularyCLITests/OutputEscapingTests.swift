import Foundation
import Testing

/// Every text a command prints that someone else wrote — labels, messages and examples of
/// plugins, file and folder names, form and type names, values, paths from the command
/// line or the environment — reaches the terminal with its control and bidirectional
/// characters escaped, on standard output and standard error alike; only JSON keeps the
/// exact text (escaped as JSON requires).
@Suite struct OutputEscapingTests {
    static let hidden: Set<Unicode.Scalar> = ["\u{1B}", "\u{7}", "\u{9B}", "\u{202E}"]

    /// A plugin whose every text has an escape sequence (written with the language's own
    /// `\u{…}` escapes), so that a label, help, message or example printed raw is found.
    static let hostileType = #"""
        field hostile
        label "L\u{1B}]0;title\u{7}\u{202E}"
        help "H\u{9B}2J"
        param tag = "t\u{1B}[5m"
        normalize trim
        pattern /[0-9]+/ message "M\u{1B}[2J{value}\u{202E}"
        accept "1"
        reject "x\u{1B}[1m" pattern
        # Wrong on purpose: 'types test' prints the failure with the file's (hostile) name.
        reject "2" pattern

        """#

    static let hostileForm = #"""
        form shady
        label "F\u{1B}[7m"
        field code hostile required label "C\u{202E}"

        """#

    /// What JSON must escape (C0 controls): a right-to-left override stays as it is there.
    static let hiddenInJSON: Set<Unicode.Scalar> = ["\u{1B}", "\u{7}"]

    /// Whether a control character reached the terminal raw. JSON output (`--format json`,
    /// `export`) keeps the exact text, so only what JSON itself escapes is looked for in it;
    /// standard error is text in every format.
    static func raw(in result: ProcessResult) -> Bool {
        let json = result.arguments.contains("json") || result.arguments.contains("export")
        return result.stdout.unicodeScalars.contains(where: (json ? hiddenInJSON : hidden).contains)
            || result.stderr.unicodeScalars.contains(where: hidden.contains)
    }

    @Test func pluginTextsFileNamesAndPathsNeverReachTheTerminalRaw() throws {
        let sandbox = try Sandbox()
        let folder = "p\u{1B}[2J\u{202E}"
        try sandbox.write("\(folder)/hostile.field", Self.hostileType)
        try sandbox.write("\(folder)/shady.form", Self.hostileForm)
        // A broken file whose name is an escape sequence: it is listed, linted and tested.
        try sandbox.write("\(folder)/b\u{1B}]0;x\u{7}.field", "field broken\nlenght 1...3\n")
        try sandbox.write("loose/d\u{1B}[2J.field", "field d\nlenght 1\n")
        try sandbox.initDatabase()
        try sandbox.write("codes.csv", "code\n12\nx\u{1B}[2J\n")
        let p = ["--plugins", folder]

        var outputs: [ProcessResult] = []
        for format in ["text", "json"] {
            let f = ["--format", format]
            for command in [["types", "list"], ["types", "show", "hostile"], ["types", "test"],
                            ["types", "test", "hostile"], ["types", "test", "b\u{1B}]0;x\u{7}"],
                            ["forms", "list"], ["forms", "show", "shady"],
                            ["check", "hostile", "12", "x\u{1B}[2J", "\u{202E}"],
                            ["check", "--live", "hostile", "x\u{1B}[2J"],
                            ["check", "hostile(tag: \"\u{1B}[2J\")", "1"],
                            ["format", "hostile", "x\u{1B}[2J"],
                            ["check", "n\u{1B}[2Jo", "1"], ["types", "show", "n\u{1B}[2Jo"],
                            ["forms", "show", "n\u{1B}[2Jo"]] {
                outputs.append(try sandbox.run(f + p + command))
            }
            outputs.append(try sandbox.run(f + ["types", "lint", "loose/d\u{1B}[2J.field", "\(folder)/hostile.field"]))
        }
        outputs.append(try sandbox.run(p + ["import", "--form", "shady", "codes.csv"]))
        outputs.append(try sandbox.run(p + ["import", "--form", "s\u{1B}[2Jhady", "codes.csv"]))
        outputs.append(try sandbox.run(p + ["import", "--form", "shady", "n\u{1B}[2Jo.csv"]))
        outputs.append(try sandbox.run(p + ["validate"]))
        outputs.append(try sandbox.run(p + ["validate", "--form", "s\u{1B}[2Jhady"]))
        for id in ["1", "2"] {
            outputs.append(try sandbox.run(p + ["entries", "show", id]))
            outputs.append(try sandbox.run(p + ["history", id]))
        }
        outputs.append(try sandbox.run(p + ["entries", "list", "--form", "s\u{1B}[2Jhady"]))
        outputs.append(try sandbox.run(p + ["types", "history", "hostile"]))
        for by in ["rule", "field", "type", "entry"] {
            outputs.append(try sandbox.run(p + ["report", "--by", by]))
        }
        outputs.append(try sandbox.run(p + ["--format", "html", "report", "--output", "r\u{1B}[2J.html"]))
        outputs.append(try sandbox.run(p + ["export"]))
        outputs.append(try sandbox.run(["--db", "d\u{1B}[2J.db", "init"]))
        outputs.append(try sandbox.run(["--db", "d\u{1B}[2J.db", "migrate"]))
        outputs.append(try sandbox.run(["--db", "n\u{1B}[2Jo/x.db", "entries", "list"]))
        outputs.append(try sandbox.run(["audit", "--since", "2026\u{1B}[2J"]))
        try sandbox.mkdir("t\u{1B}[2J")
        outputs.append(try sandbox.run(["demo"], environment: ["TMPDIR": sandbox.path("t\u{1B}[2J")]))

        for result in outputs {
            #expect(result.status < 3 || result.arguments.contains("n\u{1B}[2Jo/x.db"), "\(result)")
            #expect(!Self.raw(in: result), "a raw control character reached the terminal: \(result)")
        }
        // The texts are there, escaped.
        let list = try sandbox.run(p + ["types", "list"])
        #expect(list.stdout.contains(#"L\u{1B}]0;title\u{7}\u{202E}"#), "\(list)")
        let check = try sandbox.run(p + ["check", "hostile", "x"])
        #expect(check.stdout.contains(#"M\u{1B}[2J"#), "\(check)")
        // JSON keeps the exact text.
        let json = try sandbox.run(p + ["--format", "json", "check", "hostile", "x"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let violations = try #require(object["violations"] as? [[String: Any]])
        #expect(violations.first?["message"] as? String == "M\u{1B}[2Jx\u{202E}", "\(json)")
    }
}
