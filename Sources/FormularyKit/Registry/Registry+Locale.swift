import FormularyRules

extension Registry {
    /// Makes the registry compile its types in `locale` (`de`, `pt_BR.UTF-8`), with the
    /// translations of its message catalogs: built-in, then each plugin folder's, later ones
    /// overriding earlier ones key by key. Nil, or a text that names no locale (`C`), gives
    /// the types' own texts. Types compiled before are compiled again.
    package func localize(_ locale: String?) {
        messages = locale.flatMap(LocaleTag.canonical).map { LocaleMessages(locale: $0, files: messageFiles) }
    }

    /// Makes the registry compile its types in `locale` with `catalogs` in place of its own
    /// (a registry of a run's recorded versions, which holds none).
    package func localize(_ locale: String?, catalogs: [MessageFile]) {
        messageFiles = catalogs
        localize(locale)
    }

    /// The locale types are compiled in, canonical; nil for their own texts.
    package var locale: String? { messages?.locale }

    /// `definition` with the translations of `messages`.
    func localized(_ definition: FieldTypeDefinition, in messages: LocaleMessages?) -> FieldTypeDefinition {
        guard let messages else { return definition }
        return messages.localize(definition) { base in
            if case .success(let resolved)? = self.definition(named: base) { return resolved }
            return nil
        }
    }

    /// `form` with the labels and `required` messages of the registry's locale, to judge
    /// with; its version stays that of `form` itself.
    package func localized(_ form: FormDefinition) -> FormDefinition {
        localized(form, in: messages)
    }

    /// `form` with the labels and `required` messages of `messages`.
    package func localized(_ form: FormDefinition, in messages: LocaleMessages?) -> FormDefinition {
        messages?.localize(form) ?? form
    }

    /// The locales the registry has message catalogs for, sorted.
    package var locales: [String] { Set(messageFiles.compactMap(\.locale)).sorted() }

    /// The translations of `locale` (canonical) among the registry's catalogs.
    package func messages(for locale: String) -> LocaleMessages {
        LocaleMessages(locale: locale, files: messageFiles)
    }

    /// The message catalog read from `file`, if the registry has one.
    package func messageFile(_ file: String) -> MessageFile? {
        messageFiles.last { $0.source.file == file }
    }

    /// Every diagnostic about a message catalog: its lines', then the keys and placeholders
    /// that name nothing among the registry's types and forms (warnings).
    package func lint(messages file: String) -> [Diagnostic] {
        guard let catalog = messageFile(file) else { return [] }
        return catalog.diagnostics + catalog.lint(
            typeNames: typeNames,
            type: { name in if case .success(let d)? = self.definition(named: name) { return d } else { return nil } },
            formNames: forms.keys.sorted(), form: { self.forms[$0]?.form })
    }
}
