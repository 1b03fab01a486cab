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

    /// The rules open files and read the clock in two places only, each a call an app makes
    /// when it wants it (docs/architecture.md): `FieldCatalog.adding(folder:)` and
    /// `CivilDate.localToday()`. Everything else takes text and "today" as values.
    static let rulesMayTouchTheSystem = ["Catalog/FieldCatalog+Folder.swift", "Model/CivilDate+Today.swift"]

    /// Calls that open a file or a folder, read the clock or the environment, or bring in
    /// Foundation, outside comments, as `file:line: text`.
    static func systemCalls(in text: String, file: String) -> [String] {
        let pattern = #"(^|[^.\w])(opendir|readdir|fopen|open|stat|lstat|mmap|time|localtime_r|localtime|gmtime_r|gettimeofday|clock_gettime|getenv)\(|\bFileManager\b|\bDate\(|^\s*import Foundation"#
        let regex = try! NSRegularExpression(pattern: pattern)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test func theScannerFindsFileAndClockCalls() {
        let text = """
            let d = opendir(folder)
            var now = time(nil)
            // time(nil) in a comment
            let t = type.time(of: x)
            let f = FileManager.default
            import Foundation
            """
        #expect(Self.systemCalls(in: text, file: "x.swift").map { $0.prefix(10) } == ["x.swift:1:", "x.swift:2:", "x.swift:5:", "x.swift:6:"])
    }

    @Test func theRulesTouchFilesAndTheClockOnlyWhereAnAppAsks() throws {
        let folder = Self.root.appendingPathComponent("Sources/FormularyRules")
        let files = FileManager.default.enumerator(atPath: folder.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        #expect(files.count > 20, "the rules' sources were not found under \(folder.path)")
        for allowed in Self.rulesMayTouchTheSystem {
            #expect(files.contains(allowed), "\(allowed) moved: update the list and docs/architecture.md")
        }
        var found: [String] = []
        for file in files where !Self.rulesMayTouchTheSystem.contains(file) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            found += Self.systemCalls(in: text, file: "Sources/FormularyRules/" + file)
        }
        #expect(found.isEmpty, "FormularyRules reads no file or clock of its own:\n\(found.joined(separator: "\n"))")
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
