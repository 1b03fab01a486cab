import Foundation
import Testing

/// Plugin files seen through the command: `types lint` diagnostics, `types test`,
/// folder overrides, duplicates, links out of a folder, `extends` across sources.
@Suite struct PluginTests {
    @Test func lintReportsAMisspelledDirectiveWithLineAndCaret() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/age2.field", """
            field age2
            param min = 0
            rnage $min...
            accept "3"

            """)
        let result = try sandbox.run("types", "lint", "p/age2.field")
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines == [
            "p/age2.field:3:1: error: unknown directive 'rnage'; did you mean 'range'?",
            "rnage $min...",
            "^~~~~",
        ], "\(result)")
    }

    @Test func lintReportsEveryErrorOfAFile() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/multi.field", """
            field multi
            labl "Multi"
            normalise trim
            keyboard numpad
            length 2...5

            """)
        let result = try sandbox.run("types", "lint", "p/multi.field")
        #expect(result.status == 2, "\(result)")
        let errors = result.errorLines.filter { $0.hasPrefix("p/multi.field:") }
        #expect(errors.count == 3, "\(result)")
        #expect(errors.contains { $0.hasPrefix("p/multi.field:2:1: error:") && $0.contains("did you mean 'label'") })
        #expect(errors.contains { $0.hasPrefix("p/multi.field:3:1: error:") && $0.contains("did you mean 'normalize'") })
        #expect(errors.contains { $0.hasPrefix("p/multi.field:4:10: error:") && $0.contains("numpad") })
    }

    @Test func lintPassesGoodFilesAndJSONListsDiagnostics() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/good.field", "field good\nlength 1...3\naccept \"ab\"\nreject \"abcd\" length\n")
        try sandbox.write("p/bad.field", "field bad\nlength 5...2\n")
        let ok = try sandbox.run("types", "lint", "p/good.field")
        #expect(ok.status == 0, "\(ok)")
        #expect(ok.stdout == "ok  p/good.field\n", "\(ok)")

        let json = try sandbox.run("--format", "json", "types", "lint", "p/good.field", "p/bad.field")
        #expect(json.status == 2, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["ok"] as? Bool == false)
        let files = try #require(object["files"] as? [[String: Any]])
        #expect(files.map { $0["file"] as? String } == ["p/good.field", "p/bad.field"])
        let diagnostics = try #require(files[1]["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.first?["line"] as? Int == 2, "\(json)")
        #expect(diagnostics.first?["severity"] as? String == "error", "\(json)")
    }

    @Test func invalidUTF8InAPluginNamesLineAndColumn() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/latin1.field", bytes: Array("field latin1\nlabel \"caf".utf8) + [0xE9] + Array("\"\n".utf8))
        let result = try sandbox.run("types", "lint", "p/latin1.field")
        #expect(result.status == 2, "\(result)")
        let first = try #require(result.errorLines.first, "\(result)")
        #expect(first.hasPrefix("p/latin1.field:2:11: error:"), "\(result)")
        #expect(first.contains("UTF-8"), "\(result)")
        // The same file in a plugin folder does not take the other types down with it.
        let check = try sandbox.run("--plugins", "p", "check", "cvv", "123")
        #expect(check.status == 0, "\(check)")
    }

    @Test func typesTestEndsWithASummaryLine() throws {
        let sandbox = try Sandbox()
        let all = try sandbox.run("types", "test")
        #expect(all.status == 0, "\(all)")
        let summary = try #require(all.outputLines.last)
        let match = try #require(summary.wholeMatch(of: /(\d+) passed, (\d+) failed/), "\(all)")
        #expect(Int(match.1)! > 50, "every built-in type has examples")
        #expect(match.2 == "0")

        try sandbox.write("p/wrong.field", """
            field wrong
            mask "000"
            accept "123"
            reject "456" mask

            """)
        try sandbox.write("p/right.field", """
            field right
            length 1...2
            accept "a"
            reject "abc" length

            """)
        let failing = try sandbox.run("--plugins", "p", "types", "test", "wrong", "right")
        #expect(failing.status == 1, "\(failing)")
        #expect(failing.outputLines.last == "3 passed, 1 failed", "\(failing)")
        #expect(failing.stdout.contains("p/wrong.field:4:"), "the failing example is named by file and line: \(failing)")

        let unknown = try sandbox.run("types", "test", "no-such")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(unknown.errorLines.first?.hasPrefix("formulary: error: unknown type 'no-such'") == true, "\(unknown)")
    }

    @Test func folderTypeOverridingABuiltInShowsInTypesList() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/phone.field", """
            field phone
            label "Office extension"
            mask "0000"
            accept "1234"

            """)
        let list = try sandbox.run("--plugins", "p", "types", "list")
        #expect(list.status == 0, "\(list)")
        #expect(list.outputLines.first?.split(separator: " ", omittingEmptySubsequences: true)
                == ["NAME", "VERSION", "SOURCE", "LABEL", "OVERRIDES"], "\(list)")
        let row = try #require(list.outputLines.first { $0.hasPrefix("phone ") })
        let cells = row.split(separator: "  ", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.count == 5, "\(row)")
        #expect(cells[2] == "p" && cells[3] == "Office extension" && cells[4] == "built-in", "\(row)")
        // The other built-ins override nothing.
        let cvv = try #require(list.outputLines.first { $0.hasPrefix("cvv ") })
        #expect(cvv.hasSuffix("Security Code"), "\(cvv)")
        #expect(try sandbox.run("--plugins", "p", "format", "phone", "1234").stdout == "1234\n")

        let json = try sandbox.run("--plugins", "p", "--format", "json", "types", "list")
        let types = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let phone = try #require(types.first { $0["name"] as? String == "phone" })
        #expect(phone["source"] as? String != "built-in")
        #expect(phone["overrides"] as? [String] == ["built-in"])
    }

    /// A label of a megabyte is shown whole on its own line, and widens no column: before,
    /// every other line was padded to its width (the table's size, and time, grew as lines ×
    /// label). The output's size is the measure of the work, so this is not a timed test.
    @Test func aHugeLabelDoesNotPadEveryLineOfTypesList() throws {
        let sandbox = try Sandbox()
        let huge = String(repeating: "x", count: 1_000_000)
        try sandbox.write("p/huge.field", "field huge\nlabel \"\(huge)\"\nlength 1...3\n")
        // Types that override built-ins have a last column, so their lines are padded.
        let overriding = ["age", "bio", "cvv", "email", "iban", "isbn", "name"]
        for name in overriding {
            try sandbox.write("p/\(name).field", "field \(name)\nlabel \"Own \(name)\"\nlength 1...3\n")
        }
        // Wider than any column is widened for: the rest of its line follows after two spaces.
        let wide = String(repeating: "w", count: 150)
        try sandbox.write("p/phone.field", "field phone\nlabel \"\(wide)\"\nlength 1...3\n")

        let list = try sandbox.run("--plugins", "p", "types", "list")
        #expect(list.status == 0, "\(list.arguments) → exit \(list.status)\n\(list.stderr)")
        #expect(list.stdout.utf8.count < huge.utf8.count + 8_000,
                "types list wrote \(list.stdout.utf8.count) bytes for a \(huge.utf8.count)-byte label")
        let hugeLine = try #require(list.outputLines.first { $0.hasPrefix("huge ") })
        #expect(hugeLine.hasSuffix("  " + huge))
        let wideLine = try #require(list.outputLines.first { $0.hasPrefix("phone ") })
        #expect(wideLine.hasSuffix("  \(wide)  built-in"), "\(wideLine)")
        // The ordinary lines stay aligned: OVERRIDES starts at one column in all of them.
        let starts = overriding.compactMap { name -> Int? in
            guard let line = list.outputLines.first(where: { $0.hasPrefix(name + " ") }),
                  let range = line.range(of: "built-in", options: .backwards) else { return nil }
            return line.distance(from: line.startIndex, to: range.lowerBound)
        }
        #expect(starts.count == overriding.count && Set(starts).count == 1, "\(list.outputLines.filter { $0.utf8.count < 400 })")
    }

    @Test func twoFilesDeclaringOneTypeInAFolderIsAnError() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/a.field", "field dup\nlength 1...3\n")
        try sandbox.write("p/b.field", "field dup\nlength 1...4\n")
        let result = try sandbox.run("--plugins", "p", "check", "dup", "ab")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("also declared in"), "\(result)")
        #expect(result.stderr.contains(":1:7: error:"), "\(result)")
        let lint = try sandbox.run("--plugins", "p", "types", "lint", "p/a.field")
        #expect(lint.status == 2, "\(lint)")
        // Other types still work.
        #expect(try sandbox.run("--plugins", "p", "check", "cvv", "123").status == 0)
    }

    @Test func symbolicLinkOutOfAPluginFolderIsRefused() throws {
        let sandbox = try Sandbox()
        try sandbox.write("outside/secret.field", "field secret\nlength 1...3\n")
        try sandbox.mkdir("p")
        try FileManager.default.createSymbolicLink(atPath: sandbox.path("p/secret.field"),
                                                   withDestinationPath: sandbox.path("outside/secret.field"))
        let result = try sandbox.run("--plugins", "p", "check", "secret", "ab")
        #expect(result.status == 2, "\(result)")
        #expect(result.errorLines.first?.hasPrefix("formulary: error: p/secret.field") == true, "\(result)")
        #expect(result.stderr.contains("symbolic link"), "\(result)")
        // A link that stays inside the folder is fine.
        let inside = try Sandbox()
        try inside.write("p/lib/own.txt", "field own\nlength 1...3\naccept \"ab\"\n")
        try FileManager.default.createSymbolicLink(atPath: inside.path("p/own.field"), withDestinationPath: "lib/own.txt")
        let ok = try inside.run("--plugins", "p", "check", "own", "ab")
        #expect(ok.status == 0, "\(ok)")
    }

    /// A link that loops, or that names no file, leads nowhere: the error says which of the two
    /// it is and what to do, not that it leads out of the folder.
    @Test func symbolicLinkLoopsAndDanglingLinksAreNamedAsSuch() throws {
        let fm = FileManager.default
        let loops: [(name: String, links: [(String, String)])] = [
            ("a two-link loop", [("p/a.field", "b.field"), ("p/b.field", "a.field")]),
            ("a link to itself", [("p/a.field", "a.field")]),
            ("a loop through a link outside", [("p/a.field", "../outside/x.field"), ("outside/x.field", "../p/a.field")]),
        ]
        for (name, links) in loops {
            let sandbox = try Sandbox()
            try sandbox.mkdir("p")
            try sandbox.mkdir("outside")
            for (link, target) in links {
                try fm.createSymbolicLink(atPath: sandbox.path(link), withDestinationPath: target)
            }
            let result = try sandbox.run("--plugins", "p", "types", "list")
            #expect(result.status == 2, "\(name): \(result)")
            #expect(result.errorLines.first?.hasPrefix("formulary: error: p/a.field: is a symbolic link that loops") == true,
                    "\(name): \(result)")
            #expect(result.stderr.contains("remove the link, or point it at a plugin file in the folder"), "\(name): \(result)")
            #expect(!result.stderr.contains("leads out"), "\(name): \(result)")
        }

        let sandbox = try Sandbox()
        try sandbox.mkdir("p")
        try fm.createSymbolicLink(atPath: sandbox.path("p/gone.field"), withDestinationPath: "nowhere.field")
        let dangling = try sandbox.run("--plugins", "p", "types", "list")
        #expect(dangling.status == 2, "\(dangling)")
        #expect(dangling.errorLines.first
                    == "formulary: error: p/gone.field: is a symbolic link to a file that does not exist; "
                    + "remove the link, or point it at a plugin file in the folder", "\(dangling)")
    }

    @Test func extendsAcrossSources() throws {
        let sandbox = try Sandbox()
        // A folder type extending a built-in, and a second folder extending the first.
        try sandbox.write("a/visa.field", """
            field visa extends credit-card
            label "Visa"
            pattern /4.*/ as visa-prefix message "Visa cards start with 4"
            accept "4111 1111 1111 1111"
            reject "5500 0000 0000 0004" visa-prefix

            """)
        try sandbox.write("b/gold-visa.field", """
            field gold-visa extends visa
            label "Gold Visa"
            drop luhn
            accept "4111 1111 1111 1112"

            """)
        let result = try sandbox.run("--plugins", "a", "--plugins", "b", "check", "gold-visa",
                                     "4111111111111112", "5500000000000004")
        #expect(result.status == 1, "\(result)")
        #expect(result.outputLines.first == "valid    \"4111 1111 1111 1112\"", "\(result)")
        #expect(result.outputLines.last?.contains("visa-prefix: Visa cards start with 4") == true, "\(result)")
        let show = try sandbox.run("--plugins", "a", "--plugins", "b", "types", "show", "gold-visa")
        #expect(show.status == 0, "\(show)")
        #expect(show.stdout.contains("visa → credit-card") || show.stdout.contains("extends"), "\(show)")
        // Without the folder of the base, the base is unknown.
        let missing = try sandbox.run("--plugins", "b", "check", "gold-visa", "4111")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("b/gold-visa.field:1:"), "\(missing)")
    }
}
