import FormularyKit
import FormularyRules

extension CommandContext {
    /// The registry as this command sees it (built-in, database, folders).
    /// Parses `TYPE[(PARAMS)]` as typed on the command line and compiles it, or fails
    /// with exit status 2 and the diagnostics.
    func compiledType(_ text: String, in registry: Registry) throws -> CompiledFieldType {
        let reference: TypeReference
        switch PluginSource.parseTypeReference(text) {
        case .failure(let problems):
            throw CommandFailure(status: .badInput, message: "'\(text)' is not a type reference",
                                 details: render(problems.diagnostics))
        case .success(let r): reference = r
        }
        let source = SourceLines(file: "<command line>", lines: [text])
        switch registry.compile(reference, today: try today(), source: source) {
        case .failure(let problems):
            let errors = problems.diagnostics.filter { $0.severity == .error }
            let first = errors.first?.text ?? "type '\(reference.name)' cannot be used"
            let onCommandLine = errors.count == 1 && errors[0].location.file == "<command line>"
            let message = onCommandLine ? first : "type '\(reference.name)' cannot be used"
            // An error at the start of the reference (an unknown type name) is said in full
            // by the message; the command line is not a file, and a caret under the whole
            // name would only repeat it. Errors inside the parentheses keep their caret.
            let saidInFull = onCommandLine && problems.diagnostics.count == 1 && errors[0].location.column == 1
            throw CommandFailure(status: .badInput, message: message,
                                 details: saidInFull ? "" : render(problems.diagnostics))
        case .success(let type): return type
        }
    }

    /// The plugin files named on the command line (`types lint`, `types add`, `forms add`),
    /// each of the `--plugins` source of its own folder.
    func readPluginFiles(_ paths: [String]) throws -> [PluginFile] {
        try RegistryService.readPluginFiles(paths)
    }

    /// Diagnostics as text, `file:line:column: error: …` with the line and a caret.
    func render(_ diagnostics: [Diagnostic]) -> String {
        DiagnosticFormatter().format(diagnostics)
    }
}
