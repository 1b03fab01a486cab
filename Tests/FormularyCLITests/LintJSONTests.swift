import Foundation
import Testing

/// `types lint --format json`: each diagnostic keeps its keys (`id`, `severity`, `message`
/// as printed, `file`, `line`, `column`) and gains `domain`, `fix_its` and `notes`.
@Suite struct LintJSONTests {
    func diagnostics(_ result: ProcessResult) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(object["files"] as? [[String: Any]])
        return files.flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
    }

    @Test func didYouMeanIsAFixItWithItsRangeAndReplacement() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/age2.field", "field age2\nparam min = 0\n  rnage $min...\n")
        let result = try sandbox.run("--format", "json", "types", "lint", "p/age2.field")
        #expect(result.status == 2, "\(result)")
        let d = try #require(try diagnostics(result).first)
        #expect(d["id"] as? String == "unknown-directive")
        #expect(d["domain"] as? String == "language")
        #expect(d["message"] as? String == "unknown directive 'rnage'; did you mean 'range'?")
        #expect(d["line"] as? Int == 3 && d["column"] as? Int == 3)
        let fixIts = try #require(d["fix_its"] as? [[String: Any]])
        #expect(fixIts.count == 1)
        #expect(fixIts.first?["message"] as? String == "did you mean 'range'?")
        #expect(fixIts.first?["file"] as? String == "p/age2.field")
        #expect(fixIts.first?["line"] as? Int == 3)
        #expect(fixIts.first?["column"] as? Int == 3)
        #expect(fixIts.first?["length"] as? Int == 5)
        #expect(fixIts.first?["replacement"] as? String == "range")
        #expect((d["notes"] as? [Any])?.isEmpty == true)
    }

    @Test func hintsAreNotesAndOtherDomainsAreNamed() throws {
        let sandbox = try Sandbox()
        try sandbox.write("p/kb.field", "field kb\nkeyboard qwerty\n")
        try sandbox.write("p/zip5.field", "field zip5\nmask \"00000\"\nlength 6...10\n")
        let result = try sandbox.run("--format", "json", "types", "lint", "p/kb.field", "p/zip5.field")
        #expect(result.status == 2, "\(result)")
        let all = try diagnostics(result)
        let keyboard = try #require(all.first { $0["id"] as? String == "unknown-keyboard" }, "\(result)")
        #expect((keyboard["fix_its"] as? [Any])?.isEmpty == true)
        let notes = try #require(keyboard["notes"] as? [[String: Any]])
        #expect(notes.map { $0["message"] as? String }
                == ["expected 'default', 'number-pad', 'decimal-pad', 'email', 'phone' or 'url'"])
        #expect(keyboard["message"] as? String
                == "unknown keyboard 'qwerty'; expected 'default', 'number-pad', 'decimal-pad', 'email', 'phone' or 'url'")
        let conflict = try #require(all.first { $0["id"] as? String == "mask-length-conflict" }, "\(result)")
        #expect(conflict["domain"] as? String == "compiler")
    }
}
