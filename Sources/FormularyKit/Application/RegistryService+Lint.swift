import FormularyJSON
import FormularyRules

extension RegistryService {
    /// What `types lint` found in one file.
    public struct LintedFile: JSONObjectRepresentable, Sendable {
        /// The file as named.
        public var file: String
        /// The types and forms it declares, in order.
        public var definitions: [String]
        /// Every diagnostic of its definitions, each once, in file order.
        public var diagnostics: [Diagnostic]

        /// `{"file", "diagnostics": [...]}`, each diagnostic as ``Diagnostic`` writes it.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("file", file)
            o.array("diagnostics") { a in
                for d in diagnostics { a.object { d.writeFields(to: &$0) } }
            }
        }
    }

    /// What `types lint` found, file by file.
    public struct LintReport: JSONObjectRepresentable, Sendable {
        /// One result per file, in the order named.
        public var files: [LintedFile]

        /// Whether some file has an error (warnings alone do not count).
        public var hasErrors: Bool { files.contains { $0.diagnostics.containsErrors } }

        /// The diagnostics by definition, for saying a problem many files share once: each
        /// file's under the name of its first definition (the file when it declares none).
        public var named: [NamedDiagnostics] {
            files.map { NamedDiagnostics(name: $0.definitions.first ?? $0.file, diagnostics: $0.diagnostics) }
        }

        /// `{"ok", "files": [{"file", "diagnostics"}]}`; `ok` is false when some file has
        /// an error.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("ok", !hasErrors)
            o.array("files") { a in for f in files { a.object { f.writeFields(to: &$0) } } }
        }
    }

    /// Parses and checks the plugin files `paths` without storing anything: syntax,
    /// inheritance (a base may come from the registry or from another of the files),
    /// parameters and the load-time checks, as of `today`; and message catalogs
    /// (`de.messages`): their lines, and keys and placeholders that name nothing. Problems are the report's, not
    /// failures.
    ///
    /// - Throws: a ``ServiceError`` (bad input) when a path is a folder, or the file error
    ///   when one cannot be read.
    public func lint(_ paths: [String], today: CivilDate) throws -> LintReport {
        let registry = try workspace.registry(extraFiles: try Self.readPluginFiles(paths))
        return LintReport(files: paths.map { file in
            var diagnostics: [Diagnostic] = []
            var names: [String] = []
            for entry in registry.types(inFile: file) {
                diagnostics += registry.lint(type: entry.name, today: today)
                names.append(entry.name)
            }
            for entry in registry.forms(inFile: file) {
                diagnostics += registry.lint(form: entry.name)
                names.append(entry.name)
            }
            diagnostics += registry.lint(messages: file)
            return LintedFile(file: file, definitions: names, diagnostics: Self.inFileOrder(diagnostics))
        })
    }

    /// `diagnostics` without repeats (a base's problem comes back for each type that
    /// extends it), by file, line and column.
    static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return diagnostics.filter { seen.insert($0).inserted }.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < ($1.location.file, $1.location.line, $1.location.column)
        }
    }
}
