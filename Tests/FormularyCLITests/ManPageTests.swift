import Foundation
import Testing

/// docs/formulary.1 is generated from the command specs by `make man` (the hidden command
/// `formulary man-page`). A committed page that differs from what the binary generates now
/// is stale, as the embedded copies of plugins/ are checked against plugins/.
@Suite struct ManPageTests {
    static let committed = DocsExamplesTests.root.appendingPathComponent("docs/formulary.1")

    static func generated() throws -> String {
        let result = try Sandbox().run("man-page")
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        return result.stdout
    }

    @Test func committedPageIsWhatTheSpecsGenerate() throws {
        let page = try Self.generated()
        let committed = try String(contentsOf: Self.committed, encoding: .utf8)
        #expect(committed == page, """
            docs/formulary.1 is stale: run 'make man' and commit it.
            \(Golden.difference(expected: committed, actual: page))
            """)
    }

    /// Every command of `formulary --help` has its section, with the usage line its help
    /// shows; the hidden generator itself has none.
    @Test func pageHasEveryCommandAndNoHiddenOne() throws {
        let page = try Self.generated()
        let sandbox = try Sandbox()
        for command in HelpGoldenTests.listedCommands(in: try sandbox.run("--help").stdout) {
            let help = try sandbox.run(command.split(separator: " ").map(String.init) + ["--help"]).stdout
            let usage = try #require(help.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }).dropFirst(7)
            let roff = usage.replacingOccurrences(of: "-", with: "\\-")
            #expect(page.contains(".SS \"\(roff)\"\n"), "no section for \(command) (\(usage))")
        }
        #expect(!page.contains("man\\-page"), "the hidden man-page command is in the page")
        #expect(page.hasPrefix(".\\\""), "the page starts with a comment, not with text")
        #expect(!page.contains(where: { !$0.isASCII }), "characters beyond ASCII are written as \\[uXXXX]")
    }

    /// groff reads the page without a warning (a request it does not know, a bad escape).
    /// groff comes with the machine's man-db; without it the comparison above still holds.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
    func groffReadsThePageWithoutWarnings() throws {
        let sandbox = try Sandbox()
        try sandbox.write("formulary.1", try Self.generated())
        let result = try DocsExamplesTests.bash("groff -man -Tutf8 -ww -z formulary.1", environment: ["PATH": "/usr/bin:/bin"],
                                                in: sandbox.root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }
}
