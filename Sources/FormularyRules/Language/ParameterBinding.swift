/// Binds the arguments of a type reference (`age(min: 21)`) to a type's parameters.
package enum ParameterBinding: Sendable {
    /// Every parameter's value: the argument's where one is given, the default otherwise.
    ///
    /// Fails with every problem at once: arguments naming no parameter (with a "did you
    /// mean"), values of the wrong kind, and arguments given twice. An integer is accepted
    /// for a decimal parameter (and becomes a decimal); a decimal is not accepted for an
    /// integer parameter, nor a number for a string one.
    ///
    /// - Parameters:
    ///   - typeName: the type being referenced, for messages.
    ///   - source: the text the arguments were parsed from, so diagnostics can show it.
    package static func bind(_ parameters: [Parameter], arguments: [TypeReference.Argument],
                            typeName: String, source: SourceLines? = nil)
        -> Result<[String: ParameterValue], DiagnosticList> {
        var values: [String: ParameterValue] = [:]
        for parameter in parameters { values[parameter.name] = parameter.defaultValue }
        var diagnostics: [Diagnostic] = []
        var given: Set<String> = []

        func report(_ message: DiagnosticMessage, _ location: SourceLocation) {
            let line = source.flatMap { $0.file == location.file ? $0.text(ofLine: location.line) : nil } ?? ""
            diagnostics.append(Diagnostic(message, at: location, sourceLine: line))
        }

        for argument in arguments {
            guard given.insert(argument.name).inserted else {
                report(LanguageDiagnostic.duplicateArgument(argument.name), argument.location)
                continue
            }
            guard let parameter = parameters.first(where: { $0.name == argument.name }) else {
                let names = parameters.map(\.name)
                // The argument's location spans `name: value`; the fix-it replaces the name.
                var nameRange = argument.location
                nameRange.length = argument.name.count
                report(LanguageDiagnostic.noSuchArgument(argument.name, ofType: typeName, parameters: names,
                                                         at: nameRange),
                       argument.location)
                continue
            }
            switch (parameter.defaultValue.kind, argument.value) {
            case (.integer, .integer), (.decimal, .decimal), (.string, .string):
                values[parameter.name] = argument.value
            case (.decimal, .integer(let text)):
                values[parameter.name] = .decimal(text)
            default:
                let found: String = switch argument.value {
                case .integer(let text): "the integer \(text)"
                case .decimal(let text): "the decimal \(text)"
                case .string(let text): "the string \"\(text)\""
                }
                let wanted = parameter.defaultValue.kind == .decimal ? "a number"
                    : TypeResolver.article(parameter.defaultValue.kind)
                report(LanguageDiagnostic.argumentKind(parameter.name, ofType: typeName, takes: wanted, found: found),
                       argument.location)
            }
        }
        return diagnostics.isEmpty ? .success(values) : .failure(DiagnosticList(diagnostics))
    }
}
