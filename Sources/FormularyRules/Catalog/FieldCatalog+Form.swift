extension FieldCatalog {
    /// A form judge for the form declared in `source`, its fields typed by this catalog.
    ///
    /// - Parameters:
    ///   - source: the text of a `.form` file.
    ///   - file: the name diagnostics show, e.g. `signup.form`.
    /// - Throws: ``FormularyError`` when the file has errors, is not a form, names a type the
    ///   catalog lacks, gives a type arguments it does not take, declares a field twice, or
    ///   has a cross-field rule naming an undeclared field: what `formulary forms lint` reports.
    public func form(source: String, file: String) throws(FormularyError) -> FormValidator {
        let outcome = PluginSource.parse(bytes: Array(source.utf8), file: file)
        if outcome.hasErrors { throw FormularyError(outcome.diagnostics) }
        let form: FormDefinition
        switch outcome.content {
        case .form(let parsed):
            form = parsed
        case .field(let declaration):
            throw FormularyError([outcome.source.diagnostic(
                LanguageDiagnostic.missingHeader.message(
                    "'\(file)' declares field type '\(declaration.name)', not a form",
                    notes: [Diagnostic.Note("add types with FieldCatalog.adding(source:file:)")]),
                at: declaration.location)])
        case .none:
            throw FormularyError(outcome.diagnostics)
        }
        let problems = FormChecker.check(form, source: outcome.source, knownTypes: typeNames) { name in
            try? self.definition(named: name)
        }
        if problems.containsErrors { throw FormularyError(problems) }
        var types: [CompiledFieldType] = []
        for field in form.fields {
            types.append(try fieldType(field.type, source: outcome.source))
        }
        // In a localized catalog, the fields' labels and `required` messages of the locale.
        return FormValidator(form: messages?.localize(form) ?? form, types: types)
    }
}
