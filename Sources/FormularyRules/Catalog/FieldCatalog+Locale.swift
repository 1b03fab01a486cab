extension FieldCatalog {
    /// The locale the catalog's types speak (`de`, `pt-BR`), or nil for their own texts.
    public var locale: String? { messages?.locale }

    /// The locales the catalog holds message catalogs for, sorted: the built-in `de`, `es`,
    /// `fr`, `pt-BR`, and those an app added.
    public var locales: [String] { Set(messageFiles.compactMap(\.locale)).sorted() }

    /// A new catalog whose types speak `locale`: their messages, labels, help and
    /// placeholders taken from the message catalogs of that locale, then of its language
    /// (`pt` for `pt-BR`), else the type's own text. Placeholders (`{min}`, `{value}`, a
    /// parameter's) are filled in as in the type's own messages.
    ///
    /// The translations go into the types when they are compiled, so judging costs what it
    /// did; the new catalog compiles its types again, once. `locale` is read leniently
    /// (`pt_BR.UTF-8`, `pt-br`); text that names no locale, or `C`, gives the types' own
    /// texts, as a locale without catalogs does.
    ///
    /// ```swift
    /// let german = try FieldCatalog.builtin().localized("de")
    /// german.fieldType("age").validate("200").message   // "Das Alter muss zwischen 0 und 150 liegen"
    /// ```
    public func localized(_ locale: String) -> FieldCatalog {
        FieldCatalog(today: today, entries: entries, hasBuiltinCatalogs: hasBuiltinCatalogs,
                     addedMessageFiles: addedMessageFiles,
                     messages: LocaleTag.canonical(locale).map { LocaleMessages(locale: $0, files: messageFiles) })
    }

    /// A new catalog with the message catalog `source` added, for the locale its file name
    /// says (`de.messages`, `pt-BR.messages`); its keys override those of catalogs added
    /// before, the built-in ones included. See docs/rule-language.md, "Messages in other
    /// languages", for the format.
    ///
    /// - Throws: ``FormularyError`` when the name is not `LOCALE.messages` or a line is not
    ///   `KEY = "TEXT"`. Keys that name no type or rule are not errors here (`formulary
    ///   types lint` warns about them).
    public func adding(messages source: String, file: String) throws(FormularyError) -> FieldCatalog {
        let parsed = MessageFile.parse(bytes: Array(source.utf8), file: file)
        if parsed.diagnostics.containsErrors { throw FormularyError(parsed.diagnostics) }
        return replacing(entries: entries, addedMessageFiles: addedMessageFiles + [parsed])
    }

    /// The message catalogs the catalog holds, lowest precedence first: the built-in ones,
    /// then those an app added.
    var messageFiles: [MessageFile] { (hasBuiltinCatalogs ? Self.builtinMessageFiles : []) + addedMessageFiles }

    /// This catalog with other types or message catalogs, in the same locale.
    func replacing(entries: [String: Entry], addedMessageFiles: [MessageFile]? = nil) -> FieldCatalog {
        let catalog = FieldCatalog(today: today, entries: entries, hasBuiltinCatalogs: hasBuiltinCatalogs,
                                   addedMessageFiles: addedMessageFiles ?? self.addedMessageFiles)
        return messages.map { catalog.localized($0.locale) } ?? catalog
    }

    /// The built-in message catalogs (`plugins/*.messages`, embedded), parsed once.
    static let builtinMessageFiles: [MessageFile] = BuiltinMessageFiles.files.map {
        MessageFile.parse(bytes: Array($0.text.utf8), file: "plugins/" + $0.name)
    }
}
