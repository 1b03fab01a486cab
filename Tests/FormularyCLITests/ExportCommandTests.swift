import Foundation
import Testing

/// `formulary export` from outside: version 2, an automaton beside every pattern, and the
/// same bytes from separate processes — each process seeds its hashing afresh, and the
/// pattern compiler hashes sets of states, so only a numbering that never depends on hashing
/// keeps the document diffable.
@Suite struct ExportCommandTests {
    @Test func separateProcessesExportTheSameBytes() throws {
        let sandbox = try Sandbox()
        try sandbox.write("t/words.field", bytes: Array("""
            field words
            pattern /\\p{L}+(?: \\p{L}+)*/i
            pattern not /(?:[a-z]|[0-9])*x(?:[a-z]|[0-9]){6}/ as late-x
            mask "AAAA" when /[a-z]{4}/
            mask "AAAAA"
            """.utf8))
        let first = try sandbox.run("--plugins", "t", "export")
        let second = try sandbox.run("--plugins", "t", "export")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == second.stdout)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        #expect(document["formulary_export_version"] as? Int == 2)
        let types = try #require(document["types"] as? [[String: Any]])
        let words = try #require(types.first { $0["name"] as? String == "words" })
        let checks = try #require(words["checks"] as? [[String: Any]])
        for check in checks {
            let arguments = try #require(check["arguments"] as? [String: Any])
            let automaton = try #require(arguments["automaton"] as? [String: Any], "\(check)")
            #expect(["dfa", "nfa"].contains(automaton["kind"] as? String))
            #expect(arguments["syntax"] == nil && arguments["anchored"] == nil)
        }
        #expect(checks.map { ($0["arguments"] as? [String: Any])?["negate"] as? Bool } == [false, true])
        let masks = try #require(words["masks"] as? [[String: Any]])
        #expect(((masks[0]["when"] as? [String: Any])?["automaton"] as? [String: Any])?["kind"] as? String == "dfa")
    }
}
