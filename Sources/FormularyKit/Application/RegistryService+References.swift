import FormularyRules

extension RegistryService {
    /// The file name diagnostics give a type reference typed on a command line.
    static let commandLine = "<command line>"

    /// Parses `TYPE[(PARAMS)]` as typed on a command line (`age`, `age(min: 18)`) and
    /// compiles the type it names with its arguments, as of `today`, in the workspace's
    /// registry (`check`, `format`).
    ///
    /// - Throws: a ``ServiceError`` (bad input) when `text` is not a type reference, or when
    ///   the type is unknown (with the nearest known name), has errors, or its arguments do
    ///   not fit its parameters; with the diagnostics as details, except for an unknown name,
    ///   which the message says in full.
    public func compile(reference text: String, today: CivilDate) throws -> CompiledFieldType {
        try Self.compile(reference: text, in: try workspace.registry(), today: today)
    }

    /// ``compile(reference:today:)`` in `registry` (a front end that already holds one), with
    /// the translations of `messages` (nil: the registry's locale).
    package static func compile(reference text: String, in registry: Registry, today: CivilDate,
                                messages: LocaleMessages? = nil) throws -> CompiledFieldType {
        let reference: TypeReference
        switch PluginSource.parseTypeReference(text, file: commandLine) {
        case .failure(let problems):
            throw ServiceError(.badInput, "'\(text)' is not a type reference",
                               details: .diagnostics(problems.diagnostics, lines: []))
        case .success(let r): reference = r
        }
        let source = SourceLines(file: commandLine, lines: [text])
        switch registry.compile(reference, today: today, source: source, in: messages ?? registry.messages) {
        case .failure(let problems):
            let errors = problems.diagnostics.filter { $0.severity == .error }
            let onCommandLine = errors.count == 1 && errors[0].location.file == commandLine
            let message = onCommandLine ? errors[0].text : "type '\(reference.name)' cannot be used"
            // An error at the start of the reference (an unknown type name) is said in full
            // by the message; the command line is not a file, and a caret under the whole
            // name would only repeat it. Errors inside the parentheses keep their caret.
            let saidInFull = onCommandLine && problems.diagnostics.count == 1 && errors[0].location.column == 1
            throw ServiceError(.badInput, message,
                               details: saidInFull ? .none : .diagnostics(problems.diagnostics, lines: []))
        case .success(let type):
            return type
        }
    }
}
