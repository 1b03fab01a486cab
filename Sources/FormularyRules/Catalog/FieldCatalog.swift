/// The field types an app can use, without SQLite, a database or the file system: the
/// built-in types (compiled into the module), plus any the app adds from source text.
///
/// ```swift
/// let catalog = try FieldCatalog.builtin(today: CivilDate(year: 2026, month: 11, day: 29))
/// let card = try catalog.fieldType("credit-card")
/// let adult = try catalog.fieldType("age(min: 18, max: 120)")
/// let more = try catalog.adding(source: visaText, file: "visa.field")
/// let signup = try catalog.form(source: formText, file: "signup.form")
/// ```
///
/// An immutable value: ``adding(source:file:)`` returns a new catalog and leaves this one
/// as it was, so a catalog can be shared between threads and tasks freely. Types are
/// compiled when first asked for (each distinct reference once, then cached; copies of a
/// catalog share that cache, which only ever holds what their common types compile to).
/// Errors are ``FormularyError`` values with the diagnostics `formulary` prints.
public struct FieldCatalog: Sendable {
    /// One declared type: its parsed declaration and the text it came from.
    struct Entry: Sendable {
        var declaration: FieldTypeDecl
        var source: SourceLines
        /// Warnings of its file (errors keep a file out of the catalog).
        var warnings: [Diagnostic]
    }

    /// The date that date checks (`date … today+12y`, `exp-date`) measure from.
    public let today: CivilDate
    let entries: [String: Entry]
    let cache: CatalogCache
    /// Whether the built-in message catalogs come first among ``messageFiles``: they are
    /// parsed only when a catalog is localized, not by every app that asks for the types.
    let hasBuiltinCatalogs: Bool
    /// The message catalogs an app added, lowest precedence first.
    let addedMessageFiles: [MessageFile]
    /// The translations of the catalog's locale; nil when it is not localized.
    let messages: LocaleMessages?

    init(today: CivilDate, entries: [String: Entry], hasBuiltinCatalogs: Bool = false,
         addedMessageFiles: [MessageFile] = [], messages: LocaleMessages? = nil) {
        self.today = today
        self.entries = entries
        self.hasBuiltinCatalogs = hasBuiltinCatalogs
        self.addedMessageFiles = addedMessageFiles
        self.messages = messages
        let declarations = entries.mapValues(\.declaration)
        cache = CatalogCache(resolver: TypeResolver(knownNames: declarations.keys.sorted()) { declarations[$0] })
    }

    /// The built-in types (the `plugins/` folder of Formulary, embedded in the module), with
    /// date checks measured from `today`. Reads no file.
    ///
    /// - Throws: ``FormularyError`` if an embedded file does not parse (a build that
    ///   should never have passed its tests).
    public static func builtin(today: CivilDate) throws(FormularyError) -> FieldCatalog {
        var catalog = FieldCatalog(today: today, entries: [:])
        var entries: [String: Entry] = [:]
        for file in BuiltinPluginFiles.files {
            let entry = try catalog.parseType(source: file.text, file: "plugins/" + file.name)
            entries[entry.declaration.name] = entry
        }
        catalog = FieldCatalog(today: today, entries: entries, hasBuiltinCatalogs: true)
        return catalog
    }

    /// The built-in types, with date checks measured from the current local date.
    public static func builtin() throws(FormularyError) -> FieldCatalog {
        try builtin(today: CivilDate.localToday())
    }

    /// The names of the types this catalog holds, sorted.
    public var typeNames: [String] { entries.keys.sorted() }

    /// Whether the catalog holds a type called `name`.
    public func contains(_ name: String) -> Bool { entries[name] != nil }

    /// A new catalog with the type declared in `source` added; a type of the same name is
    /// replaced (as a plugin folder overrides a built-in type), and types that extend it
    /// then build on the new one.
    ///
    /// - Parameters:
    ///   - source: the text of a `.field` file.
    ///   - file: the name diagnostics show, e.g. `visa.field`.
    /// - Throws: ``FormularyError`` when the file has errors, is a form, or its type does
    ///   not resolve (an unknown or broken base) or compile with its default arguments.
    public func adding(source: String, file: String) throws(FormularyError) -> FieldCatalog {
        let entry = try parseType(source: source, file: file)
        var entries = self.entries
        entries[entry.declaration.name] = entry
        let catalog = replacing(entries: entries)
        try catalog.checkLoads(entry.declaration.name)
        return catalog
    }

    /// The compiled type a reference names: `credit-card`, `age(min: 18, max: 120)`,
    /// `x(label: "text")`. Compiled once per distinct reference, then shared.
    ///
    /// - Throws: ``FormularyError``: the reference does not parse, names no type of the
    ///   catalog (with a "did you mean"), gives arguments the type does not take or of the
    ///   wrong kind, or the type does not compile with them.
    public func fieldType(_ reference: String) throws(FormularyError) -> CompiledFieldType {
        let file = "<type reference>"
        switch PluginSource.parseTypeReference(reference, file: file) {
        case .failure(let problems):
            throw FormularyError(problems)
        case .success(let parsed):
            return try fieldType(parsed, source: SourceLines(file: file, lines: [reference]))
        }
    }

    /// The compiled type of a parsed reference (a form field's, say). `source` is the text
    /// the reference was written in, for the diagnostics' source lines.
    package func fieldType(_ reference: TypeReference, source: SourceLines? = nil) throws(FormularyError) -> CompiledFieldType {
        let key = reference.description
        if let hit = cache.compiled(key) { return hit }
        guard entries[reference.name] != nil else {
            let line = source?.text(ofLine: reference.location.line) ?? ""
            throw FormularyError([Diagnostic(
                LanguageDiagnostic.unknownType(reference.name, knownTypes: typeNames, at: reference.location),
                at: reference.location, sourceLine: line)])
        }
        let definition = try self.definition(named: reference.name)
        let arguments: [String: ParameterValue]
        switch ParameterBinding.bind(definition.parameters, arguments: reference.arguments,
                                     typeName: definition.name, source: source,
                                     choices: definition.parameterChoices,
                                     wordChoices: definition.parameterWordChoices) {
        case .failure(let problems): throw FormularyError(problems)
        case .success(let bound): arguments = bound
        }
        let (type, diagnostics) = FieldCompiler.compile(definition, arguments: arguments, today: today)
        guard let type else { throw FormularyError(withSourceLines(diagnostics)) }
        return cache.store(type, for: key)
    }

    /// The resolved definition of a type (its `extends` chain applied), its label, help,
    /// placeholder and messages in the catalog's ``locale`` where a message catalog has them.
    ///
    /// - Throws: ``FormularyError`` when the catalog has no such type or it does not resolve.
    public func definition(named name: String) throws(FormularyError) -> FieldTypeDefinition {
        guard entries[name] != nil else {
            let location = SourceLocation(file: "<type reference>", line: 1, column: 1, length: name.count)
            throw FormularyError([Diagnostic(
                LanguageDiagnostic.unknownType(name, knownTypes: typeNames, at: location),
                at: location, sourceLine: name)])
        }
        switch cache.resolve(name) {
        case .success(let definition):
            guard let messages else { return definition }
            return messages.localize(definition) { base in
                if case .success(let resolved)? = cache.resolve(base) { return resolved }
                return nil
            }
        case .failure(let problems): throw FormularyError(withSourceLines(problems.diagnostics))
        case nil: throw FormularyError([])   // unreachable: the entry exists
        }
    }

    // MARK: Loading

    /// Parses one `.field` file; its errors (or its being a form) are thrown.
    func parseType(source: String, file: String) throws(FormularyError) -> Entry {
        try parseType(bytes: Array(source.utf8), file: file)
    }

    /// Parses one `.field` file given as bytes (ill-formed UTF-8 is the lexer's to report).
    func parseType(bytes: [UInt8], file: String) throws(FormularyError) -> Entry {
        let outcome = PluginSource.parse(bytes: bytes, file: file)
        if outcome.hasErrors { throw FormularyError(outcome.diagnostics) }
        switch outcome.content {
        case .field(let declaration):
            return Entry(declaration: declaration, source: outcome.source, warnings: outcome.diagnostics)
        case .form(let form):
            throw FormularyError([outcome.source.diagnostic(
                LanguageDiagnostic.missingHeader.message(
                    "'\(file)' declares form '\(form.name)', not a field type",
                    notes: [Diagnostic.Note("judge forms with FieldCatalog.form(source:file:)")]),
                at: form.location)])
        case .none:
            throw FormularyError(outcome.diagnostics)
        }
    }

    /// Resolves `name` and compiles it with its parameters' defaults: the load-time checks
    /// `formulary types lint` runs (regexes, ranges, dates). Throws on errors.
    func checkLoads(_ name: String) throws(FormularyError) {
        let definition = try self.definition(named: name)
        let defaults = Dictionary(uniqueKeysWithValues: definition.parameters.map { ($0.name, $0.defaultValue) })
        let diagnostics = FieldCompiler.compile(definition, arguments: defaults, today: today).diagnostics
        if diagnostics.containsErrors { throw FormularyError(withSourceLines(diagnostics)) }
    }

    /// Fills in the source line of diagnostics made without it (the resolver's and the
    /// compiler's know locations but not texts), from the catalog's files.
    func withSourceLines(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { d in
            guard d.sourceLine.isEmpty,
                  let source = entries.values.first(where: { $0.source.file == d.location.file })?.source else { return d }
            var d = d
            d.sourceLine = source.text(ofLine: d.location.line)
            return d
        }
    }
}
