import Foundation
import Testing
import FormularyKit
import FormularyRules

/// Every rule-script example in the user documentation must be real: the docs are checked
/// against the parser, the resolver, the load-time checks and the self-tests, so that a
/// change of the language that breaks an example breaks the build instead of the reader.
///
/// Fenced blocks marked ```field hold one `.field` file that must load without error
/// (warnings are allowed) on top of the built-in types, and whose `accept`/`reject` examples
/// must pass; blocks marked ```field-error must produce at least one error (they show
/// diagnostics); ```field-fails-tests blocks must load but fail a self-test (they show
/// `types test` reporting failures). Blocks marked ```form hold one `.form` file that must
/// check without error against the built-in types and the document's ```field types;
/// ```form-error blocks must not.
struct DocsTests {
    /// One fenced block of a document.
    struct Block: Sendable, CustomTestStringConvertible {
        var document: String
        var line: Int
        var kind: String
        var text: String
        var testDescription: String { "\(document):\(line) (\(kind))" }
    }

    static let today = CivilDate(iso: "2026-11-29")!

    static let documents = ["docs/rule-language.md", "docs/cli.md", "README.md"]

    /// The repository root, found from this file's path (Tests/FormularyKitTests/…).
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The fenced blocks of `document` whose info string is one of `kinds`.
    static func blocks(of document: String, kinds: Set<String>) -> [Block] {
        let url = root.appendingPathComponent(document)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return extractBlocks(from: text, document: document, kinds: kinds)
    }

    /// Splits Markdown into fenced blocks (```` ```kind ```` … ```` ``` ````). Blocks of other
    /// kinds are skipped whole, so that a ```` ```field ```` line inside them does not count.
    static func extractBlocks(from text: String, document: String, kinds: Set<String>) -> [Block] {
        var result: [Block] = []
        var open: (kind: String, line: Int, lines: [String])?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if var block = open {
                if trimmed == "```" {
                    if kinds.contains(block.kind) {
                        result.append(Block(document: document, line: block.line, kind: block.kind,
                                            text: block.lines.joined(separator: "\n") + "\n"))
                    }
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if trimmed.hasPrefix("```") {
                open = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
            }
        }
        return result
    }

    static let allKinds: Set<String> = ["field", "field-error", "field-fails-tests", "form", "form-error"]

    static let allBlocks: [Block] = documents.flatMap { blocks(of: $0, kinds: allKinds) }

    static func pluginFile(_ block: Block, ext: String) -> PluginFile {
        PluginFile(path: "\(block.document):\(block.line).\(ext)", bytes: Array(block.text.utf8),
                   source: .folder(PluginFolder(path: "docs", origin: .option)))
    }

    /// Loads `block` as a plugin file on top of the built-in types.
    static func registry(with block: Block, ext: String) -> Registry {
        Registry(files: Registry.builtinFiles + [pluginFile(block, ext: ext)])
    }

    /// Loads a form block on top of the built-in types and its document's field types.
    static func formRegistry(with block: Block) -> Registry {
        let types = allBlocks.filter { $0.document == block.document && $0.kind == "field" }
        return Registry(files: Registry.builtinFiles + types.map { pluginFile($0, ext: "field") }
                        + [pluginFile(block, ext: "form")])
    }

    /// The type a `.field` block declares, or nil (recorded as an issue).
    static func declaredType(_ block: Block) -> FieldTypeDecl? {
        let outcome = PluginSource.parse(bytes: Array(block.text.utf8), file: block.testDescription)
        if case .field(let decl) = outcome.content { return decl }
        Issue.record("\(block.testDescription) does not declare a field type")
        return nil
    }

    /// Errors of a form block.
    static func formErrors(_ block: Block) -> [Diagnostic]? {
        let outcome = PluginSource.parse(bytes: Array(block.text.utf8), file: block.testDescription)
        guard case .form(let form) = outcome.content else {
            Issue.record("\(block.testDescription) does not declare a form")
            return nil
        }
        return formRegistry(with: block).lint(form: form.name).filter { $0.severity == .error }
    }

    static func describe(_ diagnostics: [Diagnostic]) -> String {
        DiagnosticFormatter().format(diagnostics)
    }

    // MARK: The documents have what they promise

    @Test func guideHasExamplesOfEveryKind() {
        let blocks = Self.blocks(of: "docs/rule-language.md", kinds: Self.allKinds)
        #expect(blocks.filter { $0.kind == "field" }.count >= 15)
        #expect(blocks.filter { $0.kind == "field-error" }.count >= 3)
        #expect(blocks.contains { $0.kind == "form" })
        #expect(blocks.contains { $0.kind == "form-error" })
        #expect(blocks.contains { $0.kind == "field-fails-tests" })
        let text = blocks.filter { $0.kind == "field" }.map(\.text).joined()
        for keyword in ["length", "integer", "decimal places", "range", "pattern", "charset", "one-of",
                        "date", "checksum luhn", "checksum mod97", "mask", "param", "extends", "drop",
                        "secure", "accept", "reject", "ignore-case", "warning", "final", " as "] {
            #expect(text.contains(keyword), "no ```field example in the guide uses '\(keyword)'")
        }
    }

    @Test func extractionFindsBlocksAndSkipsOthers() {
        let markdown = """
        text
        ```field
        field a
        ```
        ```sh
        cat <<'EOF'
        ```field
        EOF
        ```
        ```field-error
        nonsense
        ```
        ```form
        form f
        ```
        """
        let blocks = Self.extractBlocks(from: markdown, document: "x.md", kinds: Self.allKinds)
        #expect(blocks.map(\.kind) == ["field", "field-error", "form"])
        #expect(blocks.map(\.line) == [2, 10, 13])
        #expect(blocks[0].text == "field a\n")
        #expect(blocks[1].text == "nonsense\n")
    }

    /// The project's docs stand alone: nothing a user reads — the README, docs/, the
    /// sources' messages and comments, the bundled plugins, demo and migrations — sends them
    /// to `../shared`, which a clone of the repository does not have.
    @Test func nothingPointsOutsideTheRepository() throws {
        let fm = FileManager.default
        var files = ["README.md"]
        for folder in ["docs", "Sources", "plugins", "demo", "migrations"] {
            let enumerator = fm.enumerator(atPath: Self.root.appendingPathComponent(folder).path)
            while let path = enumerator?.nextObject() as? String { files.append(folder + "/" + path) }
        }
        var checked = 0
        for file in files {
            let url = Self.root.appendingPathComponent(file)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue,
                  let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            checked += 1
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.pointsOutside(String(line)) {
                Issue.record("\(file):\(index + 1) refers readers outside the repository: \(line)")
            }
        }
        #expect(checked > 50, "only \(checked) files were read")
    }

    /// Whether a line names the workspace's shared folder (`../shared/…`, `shared/spec/…`).
    static func pointsOutside(_ line: String) -> Bool {
        ["../shared", "shared/spec", "shared/notes", "shared/tools"].contains { line.contains($0) }
    }

    @Test func outsideReferencesAreRecognised() {
        #expect(Self.pointsOutside("The contract is `../shared/spec/cli.md`."))
        #expect(Self.pointsOutside("see `shared/notes/measured-facts.md`"))
        #expect(!Self.pointsOutside("see [cli.md](cli.md) and docs/rule-language.md"))
    }

    // MARK: Every example is real

    @Test(arguments: DocsTests.allBlocks.filter { $0.kind == "field" })
    func fieldExampleLoadsAndPassesItsSelfTests(_ block: Block) throws {
        guard let decl = Self.declaredType(block) else { return }
        let registry = Self.registry(with: block, ext: "field")
        let diagnostics = registry.lint(type: decl.name, today: Self.today)
        let errors = diagnostics.filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(block.testDescription):\n\(Self.describe(errors))")
        guard errors.isEmpty else { return }

        let reference = TypeReference(name: decl.name, location: SourceLocation(file: "<test>", line: 1, column: 1))
        let type = try registry.compile(reference, today: Self.today).get()
        for outcome in SelfTests.run(type) where !outcome.passed {
            Issue.record("\(block.testDescription) line \(outcome.example.location.line): \(outcome.reason ?? "failed")")
        }
    }

    @Test(arguments: DocsTests.allBlocks.filter { $0.kind == "field-error" })
    func errorExampleReportsAnError(_ block: Block) {
        let outcome = PluginSource.parse(bytes: Array(block.text.utf8), file: block.testDescription)
        var diagnostics = outcome.diagnostics
        if case .field(let decl) = outcome.content {
            diagnostics += Self.registry(with: block, ext: "field").lint(type: decl.name, today: Self.today)
        }
        #expect(diagnostics.contains { $0.severity == .error },
                "\(block.testDescription) is marked field-error but loads without error")
    }

    @Test(arguments: DocsTests.allBlocks.filter { $0.kind == "field-fails-tests" })
    func failingSelfTestExampleLoadsButFails(_ block: Block) throws {
        guard let decl = Self.declaredType(block) else { return }
        let registry = Self.registry(with: block, ext: "field")
        let errors = registry.lint(type: decl.name, today: Self.today).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(block.testDescription):\n\(Self.describe(errors))")
        guard errors.isEmpty else { return }
        let reference = TypeReference(name: decl.name, location: SourceLocation(file: "<test>", line: 1, column: 1))
        let type = try registry.compile(reference, today: Self.today).get()
        #expect(SelfTests.run(type).contains { !$0.passed },
                "\(block.testDescription) is marked field-fails-tests but every example passes")
    }

    @Test(arguments: DocsTests.allBlocks.filter { $0.kind == "form" })
    func formExampleChecks(_ block: Block) {
        guard let errors = Self.formErrors(block) else { return }
        #expect(errors.isEmpty, "\(block.testDescription):\n\(Self.describe(errors))")
    }

    @Test(arguments: DocsTests.allBlocks.filter { $0.kind == "form-error" })
    func formErrorExampleReportsAnError(_ block: Block) {
        guard let errors = Self.formErrors(block) else { return }
        #expect(!errors.isEmpty, "\(block.testDescription) is marked form-error but checks without error")
    }

    /// The checker itself must be able to fail: a broken example is caught.
    @Test func brokenExamplesAreCaught() throws {
        let broken = Block(document: "x.md", line: 1, kind: "field",
                           text: "field broken\nlength 5...2\n")
        let decl = try #require({ () -> FieldTypeDecl? in
            if case .field(let d) = PluginSource.parse(bytes: Array(broken.text.utf8), file: "x").content { return d }
            return nil
        }())
        let diagnostics = Self.registry(with: broken, ext: "field").lint(type: decl.name, today: Self.today)
        #expect(diagnostics.contains { $0.severity == .error && $0.id.rawValue == "empty-range" })

        let failing = Block(document: "x.md", line: 1, kind: "field",
                            text: "field failing\nmask \"000\"\nreject \"123\" mask\n")
        let registry = Self.registry(with: failing, ext: "field")
        let type = try registry.compile(TypeReference(name: "failing", location: SourceLocation(file: "t", line: 1, column: 1)),
                                        today: Self.today).get()
        #expect(SelfTests.run(type).contains { !$0.passed })
    }
}
