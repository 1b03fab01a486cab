import FormularyRules

/// Why a type or form may not be stored: its diagnostics and failing self-tests.
package struct AdmissionProblems: Error, Sendable {
    /// Errors (and warnings) from parsing, resolving and compiling the definition.
    package var diagnostics: [Diagnostic]
    /// One line per failing self-test: `file:line: self-test failed: reason`.
    package var failedSelfTests: [String]
}

/// A definition that passed its checks, ready to be stored.
package struct Admitted: Sendable {
    /// The type's or form's name.
    package var name: String
    /// The canonical source of the resolved definition: what is stored and hashed.
    package var source: String
    /// Warnings found on the way (they do not stop a definition).
    package var warnings: [Diagnostic]
}

extension Registry {
    /// What `types add` requires of a type: no error in its file, its bases or its
    /// load-time checks, and every accept/reject example passing.
    package func admit(type name: String, today: CivilDate) -> Result<Admitted, AdmissionProblems> {
        let diagnostics = lint(type: name, today: today)
        guard !diagnostics.containsErrors, let entry = type(named: name), let declaration = entry.declaration,
              case .success(let definition)? = definition(named: name) else {
            return .failure(AdmissionProblems(diagnostics: diagnostics, failedSelfTests: []))
        }
        let reference = TypeReference(name: name, location: declaration.location)
        switch compile(reference, today: today) {
        case .failure(let problems):
            return .failure(AdmissionProblems(diagnostics: diagnostics + problems.diagnostics, failedSelfTests: []))
        case .success(let compiled):
            let failed = SelfTests.run(compiled).filter { !$0.passed }.map { outcome in
                let l = outcome.example.location
                return "\(l.file):\(l.line): self-test failed: \(outcome.reason ?? "failed")"
            }
            guard failed.isEmpty else {
                return .failure(AdmissionProblems(diagnostics: diagnostics, failedSelfTests: failed))
            }
            return .success(Admitted(name: name, source: definition.canonicalSource, warnings: diagnostics))
        }
    }

    /// What `forms add` requires of a form: no error in its file, and every type and
    /// argument it names known to the registry.
    package func admit(form name: String) -> Result<Admitted, AdmissionProblems> {
        let diagnostics = lint(form: name)
        guard !diagnostics.containsErrors, let form = forms[name]?.form else {
            return .failure(AdmissionProblems(diagnostics: diagnostics, failedSelfTests: []))
        }
        return .success(Admitted(name: name, source: form.canonicalSource, warnings: diagnostics))
    }
}

extension Registry {
    /// The types a form uses that come from plugin folders (`FORMULARY_PATH`, `--plugins`),
    /// with the folder types their `extends` chains go through, bases first: what a later
    /// command without those folders would lack, or would find in another version (a folder
    /// type that overrides a built-in or database one).
    ///
    /// A folder type whose resolved definition is exactly the database's current version of
    /// that name is left out (`databaseSources`: name → stored source): the database already
    /// holds it.
    package func folderTypes(usedBy form: String, databaseSources: [String: String]) -> [TypeEntry] {
        guard let definition = forms[form]?.form else { return [] }
        var needed: [TypeEntry] = []
        var seen: Set<String> = []
        func visit(_ name: String) {
            guard seen.insert(name).inserted, let entry = type(named: name) else { return }
            guard case .folder = entry.source else {
                // A built-in type may extend one that a folder overrides: it resolves against
                // the folder's, so that one is needed too.
                if let base = entry.declaration?.base { visit(base) }
                return
            }
            if case .success(let resolved)? = self.definition(named: name),
               databaseSources[name] == resolved.canonicalSource {
                return
            }
            if let base = entry.declaration?.base { visit(base) }
            needed.append(entry)
        }
        for field in definition.fields { visit(field.type.name) }
        return needed
    }
}
