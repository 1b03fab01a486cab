import Foundation
import Testing

/// The public API of the modules an app or a service links is documented: every `public` or
/// `open` declaration carries a `///` doc comment (or a `/** */` block) right above it, its
/// attributes aside. Extensions are exempt: their members carry the comments.
///
/// A source scan rather than a compiler feature, because the toolchain here has no
/// "missing documentation" diagnostic; it reads declarations line by line, which is how the
/// project writes them.
@Suite struct PublicAPIDocumentationTests {
    /// The modules (or folders of one) whose public API is a contract for code outside the
    /// package: the rules, and Kit's application services that every front end calls.
    static let documentedModules = ["FormularyRules", "FormularyKit"]

    @Test(arguments: documentedModules)
    func everyPublicDeclarationHasADocComment(module: String) throws {
        let folder = DocsExamplesTests.root.appendingPathComponent("Sources/\(module)")
        let files = try Self.swiftFiles(in: folder)
        #expect(!files.isEmpty, "no Swift files under \(folder.path)")
        var missing: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = file.path.replacingOccurrences(of: DocsExamplesTests.root.path + "/", with: "")
            missing += Self.undocumentedDeclarations(in: text).map { "\(relative):\($0.line): \($0.text)" }
        }
        #expect(missing.isEmpty, """
            \(missing.count) public declaration(s) in \(module) lack a /// doc comment:
            \(missing.prefix(40).joined(separator: "\n"))
            """)
    }

    /// The scanner itself: it must flag what is undocumented and pass what is, or the test
    /// above could never fail.
    @Test func theScannerTellsDocumentedFromUndocumented() {
        let source = """
            /// Documented.
            public struct A {
                public var undocumented: Int
                /// Documented, behind an attribute.
                @inlinable
                public func f() {}
                @discardableResult public func g() -> Int { 0 }
                /** Block comment. */
                public init() {}
                package var hidden: Int
            }
            public extension A {}
            """
        let found = Self.undocumentedDeclarations(in: source).map(\.line)
        #expect(found == [3, 7])
    }

    static func swiftFiles(in folder: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// Lines (1-based) that open a public or open declaration with no doc comment above.
    static func undocumentedDeclarations(in text: String) -> [(line: Int, text: String)] {
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var result: [(Int, String)] = []
        for (index, line) in lines.enumerated() where declaresPublicAPI(line) {
            var above = index - 1
            while above >= 0, lines[above].hasPrefix("@") { above -= 1 }
            let comment = above >= 0 ? lines[above] : ""
            if !(comment.hasPrefix("///") || comment.hasSuffix("*/")) {
                result.append((index + 1, line))
            }
        }
        return result
    }

    /// Whether a trimmed line starts a public or open declaration other than an extension or
    /// an import. Leading attributes on the same line (`@discardableResult public func`) are
    /// skipped.
    static func declaresPublicAPI(_ line: String) -> Bool {
        var words = line.split(separator: " ", omittingEmptySubsequences: true)[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        guard let access = words.first, access == "public" || access == "open" else { return false }
        let rest = words.dropFirst()
        return !(rest.first == "extension" || rest.first == "import")
    }
}
