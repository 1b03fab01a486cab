import FormularyRules

/// The field types and forms visible to a command: the union of the built-in types, the
/// database's, and the plugin folders', later sources overriding earlier ones.
///
/// Loading parses the files of the database and the plugin folders but compiles nothing: a
/// type is compiled — patterns turned into automata, ranges and dates resolved — only when
/// it is used, and then cached per set of arguments. A built-in `.field` file is parsed only
/// when its type is looked up (it declares the type its name says: `BuiltinTypesTests`
/// holds it), so `check credit-card` parses one built-in file of nineteen; ``types`` parses
/// whatever is left. A broken file does not stop the registry from loading; its problems
/// are reported when the type is used, linted or listed.
package final class Registry {
    /// One type as the registry sees it after overriding.
    package struct TypeEntry: Sendable {
        /// The type's name.
        package var name: String
        /// The source the visible file comes from.
        package var source: TypeSource
        /// The file's path as diagnostics show it.
        package var file: String
        /// The parsed declaration, or nil when the file could not be parsed that far.
        package var declaration: FieldTypeDecl?
        /// Problems found while parsing this file and placing it in the registry.
        package var diagnostics: [Diagnostic]
        /// The sources of same-named types this one hides, nearest first.
        package var overrides: [TypeSource]
    }

    /// One form as the registry sees it after overriding.
    package struct FormEntry: Sendable {
        /// The form's name.
        package var name: String
        /// The source the visible file comes from.
        package var source: TypeSource
        /// The file's path as diagnostics show it.
        package var file: String
        /// The parsed form, or nil when the file could not be parsed that far.
        package var form: FormDefinition?
        /// The file's lines, for diagnostics found later (when the form's types are checked).
        package var text: SourceLines
        /// Problems found while parsing this file and placing it in the registry.
        package var diagnostics: [Diagnostic]
        /// The sources of same-named forms this one hides, nearest first.
        package var overrides: [TypeSource]
    }

    /// Every visible type by name, after overriding (the built-in files not parsed yet are
    /// parsed first).
    package var types: [String: TypeEntry] {
        parseDeferredBuiltins()
        return parsedTypes
    }
    /// The visible types parsed so far, by name.
    private var parsedTypes: [String: TypeEntry] = [:]
    /// Built-in `.field` files not parsed yet, by the name of the type each declares: parsed
    /// when that name is looked up, dropped unparsed when a later source overrides it.
    private var deferredBuiltins: [String: PluginFile] = [:]
    /// Every visible form by name, after overriding.
    package private(set) var forms: [String: FormEntry] = [:]
    /// Problems not tied to one type: unreadable folders, files that declare nothing.
    package private(set) var problems: [Diagnostic] = []
    /// The message catalogs (`de.messages`…) of every source, lowest precedence first,
    /// parsed when first asked for: a command in the types' own texts parses none.
    package internal(set) lazy var messageFiles: [MessageFile] = catalogFiles.map {
        MessageFile.parse(bytes: $0.bytes, file: $0.path)
    }
    /// The message catalog files as loaded, lowest precedence first.
    private var catalogFiles: [PluginFile] = []
    /// The translations types are compiled with (``localize(_:)``); nil for their own texts.
    package internal(set) var messages: LocaleMessages? {
        didSet { compiled = [:] }
    }

    private var definitions: [String: Result<FieldTypeDefinition, DiagnosticList>] = [:]
    private var compiled: [String: CompiledFieldType] = [:]
    /// Type and form names by the file that declares them, built on first use: commands
    /// given thousands of files look each one up instead of scanning every entry.
    private lazy var namesByFile: (types: [String: [String]], forms: [String: [String]]) = (
        Dictionary(grouping: types.values.map { ($0.file, $0.name) }, by: \.0).mapValues { $0.map(\.1).sorted() },
        Dictionary(grouping: forms.values.map { ($0.file, $0.name) }, by: \.0).mapValues { $0.map(\.1).sorted() })
    /// Resolves over the visible declarations, parsing a deferred built-in base when it is
    /// reached. Built once, after loading: the registry's sources no longer change.
    private lazy var resolver: TypeResolver = {
        let registry = Unowned(registry: self)
        return TypeResolver(knownNames: typeNames) { registry.registry.type(named: $0)?.declaration }
    }()

    /// The registry as its own resolver's lookup sees it. `@unchecked Sendable`: the resolver
    /// is the registry's and runs only inside its calls, on the thread that owns the registry
    /// (the lookup must be `Sendable` for the rules' thread-safe catalogue, not for this one).
    private struct Unowned: @unchecked Sendable {
        unowned let registry: Registry
    }

    /// The built-in plugin files, as compiled into the binary.
    package static var builtinFiles: [PluginFile] {
        BuiltinPluginFiles.files.map {
            PluginFile(path: "plugins/" + $0.name, bytes: Array($0.text.utf8), source: .builtin)
        }
    }

    /// The built-in message catalogs (`plugins/de.messages`…), as compiled into the binary.
    package static var builtinCatalogFiles: [PluginFile] {
        BuiltinMessageFiles.files.map {
            PluginFile(path: "plugins/" + $0.name, bytes: Array($0.text.utf8), source: .builtin)
        }
    }

    /// Loads the given files, which must come grouped by source, lowest precedence first.
    package init(files: [PluginFile]) {
        var declaredIn: [String: String] = [:]   // "source|name" → file, to catch duplicates
        for file in files {
            if file.path.hasSuffix(MessageFile.fileExtension) {
                catalogFiles.append(file)
                continue
            }
            if file.source == .builtin, file.path.hasSuffix(".field") {
                let name = Registry.stem(of: file.path)
                let key = "\(file.source)|field|\(name)"
                if declaredIn[key] == nil, parsedTypes[name] == nil, deferredBuiltins[name] == nil {
                    declaredIn[key] = file.path
                    deferredBuiltins[name] = file
                    continue
                }
            }
            let outcome = PluginSource.parse(bytes: file.bytes, file: file.path)
            switch outcome.content {
            case .field(let decl):
                var diagnostics = outcome.diagnostics
                let key = "\(file.source)|field|\(decl.name)"
                if let other = declaredIn[key] {
                    diagnostics.append(outcome.source.diagnostic(
                        RegistryDiagnostic.duplicateDeclaration(.type, named: decl.name, alsoIn: other),
                        at: decl.location))
                }
                declaredIn[key] = file.path
                add(TypeEntry(name: decl.name, source: file.source, file: file.path, declaration: decl,
                              diagnostics: diagnostics, overrides: []))
            case .form(let form):
                var diagnostics = outcome.diagnostics
                let key = "\(file.source)|form|\(form.name)"
                if let other = declaredIn[key] {
                    diagnostics.append(outcome.source.diagnostic(
                        RegistryDiagnostic.duplicateDeclaration(.form, named: form.name, alsoIn: other),
                        at: form.location))
                }
                declaredIn[key] = file.path
                add(FormEntry(name: form.name, source: file.source, file: file.path, form: form,
                              text: outcome.source, diagnostics: diagnostics, overrides: []))
            case .none:
                // Nothing declared: attribute the problems to the name the file suggests,
                // so that using that name reports them instead of "unknown type".
                let stem = Registry.stem(of: file.path)
                if file.path.hasSuffix(".form") {
                    add(FormEntry(name: stem, source: file.source, file: file.path, form: nil,
                                  text: outcome.source, diagnostics: outcome.diagnostics, overrides: []))
                } else {
                    add(TypeEntry(name: stem, source: file.source, file: file.path, declaration: nil,
                                  diagnostics: outcome.diagnostics, overrides: []))
                }
            }
        }
    }

    private func add(_ entry: TypeEntry) {
        var entry = entry
        if deferredBuiltins[entry.name] != nil {
            if entry.source == .builtin {
                // Two built-in files declare one name: the first is parsed, so that the
                // second is reported as its duplicate.
                parseDeferredBuiltin(named: entry.name)
            } else {
                // A later source hides the built-in type, which then needs no parsing.
                deferredBuiltins[entry.name] = nil
                entry.overrides = [.builtin]
            }
        }
        // A second declaration in the same source is an error (reported on it), not an override.
        if let hidden = parsedTypes[entry.name] {
            entry.overrides = hidden.source == entry.source ? hidden.overrides : [hidden.source] + hidden.overrides
        }
        parsedTypes[entry.name] = entry
    }

    /// Parses the deferred built-in file that declares `name`, if there is one.
    private func parseDeferredBuiltin(named name: String) {
        guard let file = deferredBuiltins.removeValue(forKey: name) else { return }
        let outcome = PluginSource.parse(bytes: file.bytes, file: file.path)
        switch outcome.content {
        case .field(let decl):
            add(TypeEntry(name: decl.name, source: file.source, file: file.path, declaration: decl,
                          diagnostics: outcome.diagnostics, overrides: []))
        case .form, .none:
            // Not what a built-in `.field` file holds (a test keeps them clean): its problems
            // are kept under the name, as for any file that declares no type.
            add(TypeEntry(name: name, source: file.source, file: file.path, declaration: nil,
                          diagnostics: outcome.diagnostics, overrides: []))
        }
    }

    /// Parses every deferred built-in file (lowest precedence first: they are the first source).
    private func parseDeferredBuiltins() {
        for name in deferredBuiltins.keys.sorted() { parseDeferredBuiltin(named: name) }
    }

    /// The visible type called `name`, parsing its built-in file if it was deferred; nil when
    /// no source declares it.
    package func type(named name: String) -> TypeEntry? {
        if let entry = parsedTypes[name] { return entry }
        guard deferredBuiltins[name] != nil else { return nil }
        parseDeferredBuiltin(named: name)
        return parsedTypes[name]
    }

    private func add(_ entry: FormEntry) {
        var entry = entry
        if let hidden = forms[entry.name] {
            entry.overrides = hidden.source == entry.source ? hidden.overrides : [hidden.source] + hidden.overrides
        }
        forms[entry.name] = entry
    }

    static func stem(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// The types `file` declares (one, unless it is a duplicate), by name.
    package func types(inFile file: String) -> [TypeEntry] {
        (namesByFile.types[file] ?? []).compactMap { parsedTypes[$0] }
    }

    /// The forms `file` declares, by name.
    package func forms(inFile file: String) -> [FormEntry] {
        (namesByFile.forms[file] ?? []).compactMap { forms[$0] }
    }

    /// How many built-in files are still unparsed (for tests: what a command parsed).
    package var unparsedBuiltinCount: Int { deferredBuiltins.count }

    /// Type names, sorted (no deferred built-in file is parsed for them).
    package var typeNames: [String] { (Array(parsedTypes.keys) + Array(deferredBuiltins.keys)).sorted() }

    /// The resolved definition of a type (after `extends`), or every problem that stands
    /// in the way: its own file's, its bases' and the resolver's.
    package func definition(named name: String) -> Result<FieldTypeDefinition, DiagnosticList>? {
        if let cached = definitions[name] { return cached }
        guard let entry = type(named: name) else { return nil }
        let result: Result<FieldTypeDefinition, DiagnosticList>
        if entry.diagnostics.containsErrors || entry.declaration == nil {
            result = .failure(DiagnosticList(entry.diagnostics))
        } else {
            // By name: the resolver then reuses what it resolved for other types' bases.
            result = resolver.resolve(name) ?? .failure(DiagnosticList(entry.diagnostics))
        }
        definitions[name] = result
        return result
    }

    /// The type a reference names, compiled with its arguments for `today`, in the
    /// registry's locale. Cached.
    package func compile(_ reference: TypeReference, today: CivilDate,
                        source: SourceLines? = nil) -> Result<CompiledFieldType, DiagnosticList> {
        compile(reference, today: today, source: source, in: messages)
    }

    /// ``compile(_:today:source:)`` with the translations of `messages` (nil: the types'
    /// own texts) instead of the registry's: a server answers each request in its locale.
    package func compile(_ reference: TypeReference, today: CivilDate, source: SourceLines? = nil,
                        in messages: LocaleMessages?) -> Result<CompiledFieldType, DiagnosticList> {
        let key = "\(reference)@\(today)" + (messages.map { "#" + $0.locale } ?? "")
        if let hit = compiled[key] { return .success(hit) }
        guard let found = definition(named: reference.name) else {
            let line = source?.text(ofLine: reference.location.line) ?? ""
            let message = LanguageDiagnostic.unknownType(reference.name, knownTypes: typeNames, at: reference.location,
                                                         otherwise: "'formulary types list' shows the types there are")
            return .failure(DiagnosticList([Diagnostic(message, at: reference.location, sourceLine: line)]))
        }
        let definition: FieldTypeDefinition
        switch found {
        case .failure(let problems): return .failure(DiagnosticList(withSourceLines(problems.diagnostics)))
        case .success(let d): definition = localized(d, in: messages)
        }
        let arguments: [String: ParameterValue]
        switch ParameterBinding.bind(definition.parameters, arguments: reference.arguments,
                                     typeName: definition.name, source: source,
                                     choices: definition.parameterChoices,
                                     wordChoices: definition.parameterWordChoices) {
        case .failure(let problems): return .failure(problems)
        case .success(let a): arguments = a
        }
        let (type, diagnostics) = FieldCompiler.compile(definition, arguments: arguments, today: today)
        guard let type else { return .failure(DiagnosticList(withSourceLines(diagnostics))) }
        compiled[key] = type
        return .success(type)
    }
}
