import Foundation
import Testing

/// The suite runs from any working directory (an IDE, `swift test` in a subfolder, CI): no
/// test names a file by a path relative to where it was started. Paths come from
/// `#filePath`, a sandbox or the system (`/usr/bin/…`).
@Suite struct TestHygieneTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// File-reading calls whose path is a string literal that is neither absolute nor built
    /// by interpolation, as `file:line: text`.
    static func relativePaths(in text: String, file: String) -> [String] {
        let pattern = #"(contentsOfFile|atPath|fileURLWithPath|forReadingAtPath|contentsOf: URL\(fileURLWithPath): *"(?![/\\])"#
        let regex = try! NSRegularExpression(pattern: pattern)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test func theScannerFindsARelativePathAndLeavesOthers() {
        let text = """
            let a = try String(contentsOfFile: "plugins/credit-card.field", encoding: .utf8)
            let b = try String(contentsOfFile: "/usr/share/dict/words", encoding: .utf8)
            let c = FileManager.default.fileExists(atPath: "\\(folder)/f.db")
            let d = URL(fileURLWithPath: "fixtures/a.csv")
            """
        #expect(Self.relativePaths(in: text, file: "x.swift").map { $0.prefix(10) } == ["x.swift:1:", "x.swift:4:"])
    }

    @Test func noTestReadsAFileRelativeToTheWorkingDirectory() throws {
        let tests = Self.root.appendingPathComponent("Tests")
        let enumerator = try #require(FileManager.default.enumerator(atPath: tests.path))
        var found: [String] = []
        for case let file as String in enumerator where file.hasSuffix(".swift") && !file.hasSuffix("TestHygieneTests.swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            found += Self.relativePaths(in: text, file: file)
        }
        #expect(found.isEmpty, "build the path from #filePath instead:\n\(found.joined(separator: "\n"))")
    }
}
