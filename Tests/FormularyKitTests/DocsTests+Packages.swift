import Foundation
import Testing

extension DocsTests {
    /// The README names the Debian packages `make deps` installs: exactly the Makefile's
    /// `DEBIAN_PKGS`, so that adding one to the build cannot leave the README short of it
    /// (it listed three of eight once).
    @Test func readmeListsThePackagesMakeDepsInstalls() throws {
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let installed = Set(try #require(Self.makeVariable("DEBIAN_PKGS", in: makefile), "no DEBIAN_PKGS in the Makefile"))
        #expect(installed.count >= 8, "\(installed)")
        let listed = Set(try #require(Self.packagesNamed(afterMentionOf: "`DEBIAN_PKGS`", in: readme),
                                      "the README does not mention DEBIAN_PKGS"))
        #expect(listed == installed, "the README lists \(listed.sorted()); make deps installs \(installed.sorted())")
    }

    @Test func packageListsAreReadAsWritten() {
        #expect(Self.makeVariable("PKGS", in: "A := 1\nPKGS  := a-dev  b\\\n  c\nB := 2\n") == ["a-dev", "b", "c"])
        let text = "Intro `x`.\n\nThe `LIST` — `a-dev`, `b` (for `c d`), `e3`.\nMore `f`.\n\nNext `g`."
        #expect(Self.packagesNamed(afterMentionOf: "`LIST`", in: text) == ["a-dev", "b", "e3", "f"])
    }

    /// The words of a `NAME := …` line of a Makefile (with its `\` continuations).
    static func makeVariable(_ name: String, in makefile: String) -> [String]? {
        var lines = makefile.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        while let line = lines.popFirst() {
            let parts = line.split(separator: ":=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            var value = String(parts[1])
            while value.hasSuffix("\\"), let next = lines.popFirst() { value = String(value.dropLast()) + " " + next }
            return value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        }
        return nil
    }

    /// The package-like code spans (`libpq-dev`, one lower-case word) from `mention` to the
    /// end of its paragraph.
    static func packagesNamed(afterMentionOf mention: String, in text: String) -> [String]? {
        guard let start = text.range(of: mention) else { return nil }
        let rest = text[start.upperBound...]
        let paragraph = rest[..<(rest.range(of: "\n\n")?.lowerBound ?? rest.endIndex)]
        let spans = paragraph.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return spans.filter { $0.allSatisfy { $0.isLowercase || $0.isNumber || "-.+".contains($0) } && !$0.isEmpty }
    }
}
