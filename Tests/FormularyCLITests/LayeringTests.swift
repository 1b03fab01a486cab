import Foundation
import Testing

/// The CLI is parse → one FormularyKit call → render: it reaches the database, SQLite,
/// libpq, libcrypto and PCRE2 only through FormularyKit, never by importing them.
@Suite struct LayeringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Modules below FormularyKit that the CLI must not import.
    static let forbidden = ["FormularyStore", "CSQLite", "CLibPQ", "CCrypto", "CPCRE2"]

    /// `import` lines (any attributes or access level before them) naming a forbidden module,
    /// as `file:line: text`.
    static func forbiddenImports(in text: String, file: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let index = words.firstIndex(of: "import"), index + 1 < words.count,
                  words[..<index].allSatisfy({ $0.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains($0) })
            else { continue }
            // `import struct FormularyStore.Store` names the module after the kind.
            let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let target = kinds.contains(words[index + 1]) && index + 2 < words.count ? words[index + 2] : words[index + 1]
            let module = String(target.split(separator: ".").first ?? "")
            if forbidden.contains(module) { found.append("\(file):\(number + 1): \(line)") }
        }
        return found
    }

    @Test func theScannerCatchesEverySpellingOfAForbiddenImport() {
        let text = """
        import FormularyKit
        import FormularyStore
        @preconcurrency import CSQLite
        internal import CCrypto
        import struct CPCRE2.pcre2_code_8
        // import FormularyStore in a comment is not an import
        import FormularyStoreExtras
        """
        #expect(Self.forbiddenImports(in: text, file: "x.swift") == [
            "x.swift:2: import FormularyStore",
            "x.swift:3: @preconcurrency import CSQLite",
            "x.swift:4: internal import CCrypto",
            "x.swift:5: import struct CPCRE2.pcre2_code_8",
        ])
    }

    /// The commands' library and the executable around them.
    static let targets = ["FormularyCLI", "formulary"]

    @Test(arguments: targets)
    func theCLIImportsNothingBelowFormularyKit(target: String) throws {
        let folder = Self.root.appendingPathComponent("Sources/\(target)")
        let files = FileManager.default.enumerator(atPath: folder.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        #expect(!files.isEmpty, "the sources of \(target) were not found under \(folder.path)")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            found += Self.forbiddenImports(in: text, file: "Sources/\(target)/" + file)
        }
        #expect(found.isEmpty, "the CLI goes through FormularyKit's services:\n\(found.joined(separator: "\n"))")
    }

    @Test(arguments: targets)
    func theCLIDoesNotDependOnTheStore(target: String) throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let line = manifest.split(separator: "\n").first { $0.contains("arget(name: \"\(target)\"") }
        #expect(line != nil, "no target \(target) in Package.swift")
        for module in Self.forbidden {
            #expect(line?.contains("\"\(module)\"") == false, "\(target) depends on \(module) in Package.swift")
        }
    }
}
