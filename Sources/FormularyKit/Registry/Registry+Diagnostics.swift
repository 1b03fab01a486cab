import FormularyRules
import FormularyStore

extension Registry {
    /// Every diagnostic about a type, warnings included: its file's, the resolver's, and
    /// the load-time checks of compiling it with its default arguments.
    package func lint(type name: String, today: CivilDate) -> [Diagnostic] {
        guard let entry = type(named: name) else { return [] }
        var diagnostics = entry.diagnostics
        guard !diagnostics.containsErrors, entry.declaration != nil,
              let resolved = definition(named: name) else { return withSourceLines(diagnostics) }
        switch resolved {
        case .failure(let problems):
            diagnostics += problems.diagnostics.filter { !diagnostics.contains($0) }
        case .success(let definition):
            let defaults = Dictionary(uniqueKeysWithValues: definition.parameters.map { ($0.name, $0.defaultValue) })
            diagnostics += FieldCompiler.compile(definition, arguments: defaults, today: today).diagnostics
        }
        return withSourceLines(diagnostics)
    }

    /// Every diagnostic about a form: its file's and those that need the registry
    /// (unknown types, bad arguments, undeclared fields).
    package func lint(form name: String) -> [Diagnostic] {
        guard let entry = forms[name] else { return [] }
        var diagnostics = entry.diagnostics
        if let form = entry.form, !diagnostics.containsErrors {
            diagnostics += FormChecker.check(form, source: entry.text, knownTypes: typeNames) { type in
                if case .success(let d)? = self.definition(named: type) { return d }
                return nil
            }
        }
        return withSourceLines(diagnostics)
    }

    /// Fills in the source line of diagnostics that were made without it (the engine's
    /// load-time checks know locations but not texts).
    package func withSourceLines(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { d in
            guard d.sourceLine.isEmpty else { return d }
            var d = d
            if let source = sourceLines(ofFile: d.location.file) {
                d.sourceLine = source.text(ofLine: d.location.line)
            }
            return d
        }
    }

    private func sourceLines(ofFile file: String) -> SourceLines? {
        if let t = types(inFile: file).first { return t.declaration?.source }
        if let f = forms(inFile: file).first { return f.text }
        return nil
    }

    /// The version of a resolved definition: the SHA-256 of its canonical source, in hex.
    /// Equal definitions have equal versions wherever they come from.
    package static func version(of definition: FieldTypeDefinition) -> String {
        SHA256.hex(definition.canonicalSource)
    }

    /// The version of a form: the SHA-256 of its canonical source, in hex.
    package static func version(of form: FormDefinition) -> String {
        SHA256.hex(form.canonicalSource)
    }
}
