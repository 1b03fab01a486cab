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
    ///   - choices: for a string parameter that `if` conditions read, the values it may take
    ///     (``FieldTypeDefinition/parameterChoices``); another value is an error.
    ///   - wordChoices: for a string parameter that lists names separated by spaces (a
    ///     `mask-one-of`), the names it may list (``FieldTypeDefinition/parameterWordChoices``).
    package static func bind(_ parameters: [Parameter], arguments: [TypeReference.Argument],
                             typeName: String, source: SourceLines? = nil, choices: [String: [String]] = [:],
                            wordChoices: [String: [String]] = [:])
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
            case (.string, .string(let text)):
                if let allowed = choices[parameter.name], !allowed.contains(text) {
                    let near = allowed.first { $0.lowercased() == text.lowercased() }
                    report(LanguageDiagnostic.argumentKind(parameter.name, ofType: typeName,
                                                           takes: describe(choices: allowed),
                                                           found: "the string \"\(text)\""
                                                               + (near.map { "; did you mean \"\($0)\"?" } ?? "")),
                           argument.location)
                    continue
                }
                if let allowed = wordChoices[parameter.name], let problem = wordProblem(text, allowed) {
                    report(LanguageDiagnostic.argumentKind(parameter.name, ofType: typeName,
                                                           takes: "names from \(describe(choices: allowed).dropFirst(7)), separated by spaces",
                                                           found: problem),
                           argument.location)
                    continue
                }
                values[parameter.name] = argument.value
            case (.integer, .integer), (.decimal, .decimal):
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

    /// What is wrong with a list of names, or nil: none given, or one that is not allowed.
    static func wordProblem(_ text: String, _ allowed: [String]) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return "no name" }
        guard let wrong = words.first(where: { !allowed.contains($0) }) else { return nil }
        let near = allowed.first { $0.lowercased() == wrong.lowercased() }
            ?? Suggestion.nearest(to: wrong, in: allowed)
        return "\"\(wrong)\"" + (near.map { "; did you mean \"\($0)\"?" } ?? "")
    }

    /// `one of "", "AC", "AD", … "ZW" (246 values)`: the values a parameter read by `if`
    /// conditions may take, the first twelve and the last named.
    static func describe(choices: [String]) -> String {
        let quoted = choices.map { "\"\($0)\"" }
        let shown = quoted.count <= 16 ? quoted.joined(separator: ", ")
            : quoted.prefix(12).joined(separator: ", ") + ", … " + quoted.last! + " (\(quoted.count) values)"
        return "one of " + shown
    }
}
