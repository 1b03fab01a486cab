import FormularyJSON
import FormularyRules
import FormularyStore

extension RegistryService {
    /// What `types add` or `forms add` stored.
    public struct Admission: Sendable {
        /// The types stored (or found already current), in the order given.
        public var types: [AddOutcome]
        /// The forms stored (or found already current), in the order given.
        public var forms: [AddOutcome]
        /// How each type's new version was weighed against its compatibility policy.
        public var compatibility: [CompatibilityCheck] = []
    }

    /// Receives warnings (problems that do not stop a definition) as soon as they are
    /// found, before anything else can fail: `.digest` for the files named, `.diagnostics`
    /// for the folder types `forms add --add-types` stores.
    public typealias WarningSink = (ServiceError.Details) -> Void

    /// Lints and self-tests the types in the files named (one type each) in the registry with the
    /// files added, then stores each as a new version, all in one transaction (audited).
    ///
    /// - Throws: a ``ServiceError`` (bad input, nothing stored) when a file declares no
    ///   type, has errors or failing accept/reject examples, with the problems as details.
    ///
    /// Each new version of a name the registry has is first weighed against its type's
    /// compatibility policy (``compatibility(pluginFiles:today:warnings:)``): one that breaks
    /// it is refused (a ``ServiceError`` of kind conflict, nothing stored) unless
    /// `allowBreaking` gives the reason it is meant, which the audit log records.
    public func addTypes(_ files: [String], today: CivilDate, allowBreaking: String? = nil,
                         warnings: WarningSink) throws -> Admission {
        try addTypes(pluginFiles: try Self.readPluginFiles(files), today: today, allowBreaking: allowBreaking,
                     warnings: warnings)
    }

    /// ``addTypes(_:today:allowBreaking:warnings:)`` of files already read: `POST /v1/types`
    /// admits the body of its request this way, as `types add` admits a file.
    public func addTypes(pluginFiles: [PluginFile], today: CivilDate, allowBreaking: String? = nil,
                         warnings: WarningSink) throws -> Admission {
        if let reason = allowBreaking, reason.allSatisfy(\.isWhitespace) {
            throw ServiceError(.badInput, "--allow-breaking needs a reason: say why the change is meant, "
                               + "e.g. --reason \"TLDs of one letter do not exist\"")
        }
        let store = try workspace.store(.write)
        let checked = try check(pluginFiles: pluginFiles, kind: .type, today: today, store: store, warnings: warnings)
        let checks = try compatibility(of: checked.admitted, proposed: checked.registry, store: store, today: today)
        let breaking = checks.filter { !$0.isCompatible }
        if !breaking.isEmpty && allowBreaking == nil {
            throw Self.refusal(breaking)
        }
        let actor = workspace.settings.actor
        let outcomes = try store.transaction {
            try checked.admitted.map { admitted in
                let note: [(String, JSONValue)] = breaking.first { $0.type == admitted.name }.map { check in
                    [("compatibility", .string(check.policy.rawValue)), ("breaking", .bool(true)),
                     ("compared_with", check.previousHash.map(JSONValue.string) ?? .null),
                     ("reason", .string(allowBreaking ?? "")),
                     ("breaches", .array(check.breaches.map(JSONValue.string)))]
                } ?? []
                return try store.addVersion(.type, name: admitted.name, source: admitted.source, actor: actor, note: note)
            }
        }
        return Admission(types: outcomes.map(AddOutcome.init), forms: [], compatibility: checks)
    }

    /// Why `types add` stored nothing: the versions that break their policies, and how to go on.
    static func refusal(_ breaking: [CompatibilityCheck]) -> ServiceError {
        let names = breaking.map { "'\($0.type)'" }.joined(separator: ", ")
        var lines: [String] = []
        for check in breaking {
            lines.append("\(check.type): policy \(check.policy.rawValue) (\(check.policy.requirement)):")
            lines += check.breaches.map { "  \($0)" }
        }
        lines.append("Nothing was stored. To see the change: formulary impact FILE. To take it anyway: "
                     + "formulary types add --allow-breaking --reason \"…\" FILE (audited).")
        return ServiceError(.conflict, "the new version of \(names) breaks \(breaking.count == 1 ? "its" : "their") "
                            + "compatibility polic\(breaking.count == 1 ? "y" : "ies")", details: .text(lines.joined(separator: "\n")))
    }

    /// Checks the forms in the files named (one form each) and stores each as a new version, all in
    /// one transaction (audited). A form stored in the database must work without the
    /// plugin folders of the moment: the folder types it uses are refused, or, with
    /// `addTypes`, admitted as ``addTypes(_:today:)`` admits them and stored in the same
    /// transaction, before the forms.
    ///
    /// - Throws: a ``ServiceError`` (bad input, nothing stored) when a file declares no
    ///   form or has errors, when a form uses folder types without `addTypes`, or when such
    ///   a type has problems.
    public func addForms(_ files: [String], addTypes: Bool, today: CivilDate,
                         warnings: WarningSink) throws -> Admission {
        try addForms(pluginFiles: try Self.readPluginFiles(files), addTypes: addTypes, today: today, warnings: warnings)
    }

    /// ``addForms(_:addTypes:today:warnings:)`` of files already read: `POST /v1/forms`
    /// admits the body of its request this way, as `forms add` admits a file.
    public func addForms(pluginFiles: [PluginFile], addTypes: Bool, today: CivilDate,
                         warnings: WarningSink) throws -> Admission {
        let store = try workspace.store(.write)
        let checked = try check(pluginFiles: pluginFiles, kind: .form, today: today, store: store, warnings: warnings)
        let types = try folderTypes(of: checked.admitted, in: checked.registry, store: store,
                                    addTypes: addTypes, today: today, warnings: warnings)
        let actor = workspace.settings.actor
        let outcomes = try store.transaction {
            try types.map { try store.addVersion(.type, name: $0.name, source: $0.source, actor: actor) }
                + checked.admitted.map { try store.addVersion(.form, name: $0.name, source: $0.source, actor: actor) }
        }
        let added = outcomes.map(AddOutcome.init)
        return Admission(types: Array(added.prefix(types.count)), forms: Array(added.dropFirst(types.count)))
    }

    /// The definitions of `files`, admitted, and the registry they were checked in (the
    /// workspace's, with the files added). With `kind` nil (`impact`), each file may hold a
    /// type or a form; `verb` says what was not done when a file has problems.
    func check(_ files: [String], kind: DefinitionKind?, today: CivilDate, store: Store?,
               verb: String = "stored", warnings: WarningSink) throws -> (admitted: [Admitted], registry: Registry) {
        try check(pluginFiles: try Self.readPluginFiles(files), kind: kind, today: today, store: store, verb: verb,
                  warnings: warnings)
    }

    /// ``check(_:kind:today:store:verb:warnings:)`` of files already read (the body of an
    /// HTTP request is one).
    func check(pluginFiles extra: [PluginFile], kind: DefinitionKind?, today: CivilDate, store: Store?,
               verb: String = "stored", warnings: WarningSink) throws -> (admitted: [Admitted], registry: Registry) {
        let files = extra.map(\.path)
        if let catalog = files.first(where: { $0.hasSuffix(MessageFile.fileExtension) }) {
            throw ServiceError(.badInput, "\(catalog) is a message catalog, and the database stores none; "
                               + "put it in a plugin folder (--plugins), where it translates the types it names, stored ones too")
        }
        let registry = try store.map { try workspace.registry(store: $0, extraFiles: extra) }
            ?? workspace.registry(extraFiles: extra)
        // Files often share a problem (every type below a too-deep chain has the same one):
        // the front end says each once, with how many types it stops.
        var problems: [NamedDiagnostics] = []
        var failures: [String] = []
        var checked: [Admitted] = []
        for file in extra {
            let path = file.path
            let typeEntries = registry.types(inFile: path)
            let formEntries = registry.forms(inFile: path)
            // A file that declares nothing (a CSV file, a binary) is neither a type nor a
            // form, whatever its name suggests: its own diagnostics say what it is.
            if typeEntries.allSatisfy({ $0.declaration == nil }) && formEntries.allSatisfy({ $0.form == nil }),
               let diagnostics = (typeEntries.first?.diagnostics ?? formEntries.first?.diagnostics), diagnostics.containsErrors {
                problems.append(NamedDiagnostics(name: path, diagnostics: diagnostics))
                if let foreign = ForeignFile.recognize(file.bytes), foreign.isText {
                    failures.append("To store its records as entries of a form: formulary import --form NAME \(path)")
                }
                continue
            }
            let outcome: Result<Admitted, AdmissionProblems>
            let name: String
            switch kind ?? (typeEntries.isEmpty && !formEntries.isEmpty ? .form : .type) {
            case .type:
                guard let entry = typeEntries.first else {
                    if kind == nil {
                        failures.append("\(path) declares no field type or form")
                        continue
                    }
                    let what = formEntries.first.map { "declares the form '\($0.name)', not a field type: add it with 'formulary forms add \(path)'" }
                        ?? "declares no field type"
                    failures.append("\(path) \(what)")
                    continue
                }
                name = entry.name
                outcome = registry.admit(type: entry.name, today: today)
            case .form:
                guard let entry = formEntries.first else {
                    let what = typeEntries.first.map { "declares the field type '\($0.name)', not a form: add it with 'formulary types add \(path)'" }
                        ?? "declares no form"
                    failures.append("\(path) \(what)")
                    continue
                }
                name = entry.name
                outcome = registry.admit(form: entry.name)
            }
            switch outcome {
            case .success(let admitted):
                problems.append(NamedDiagnostics(name: name, diagnostics: admitted.warnings))
                checked.append(admitted)
            case .failure(let why):
                problems.append(NamedDiagnostics(name: name, diagnostics: why.diagnostics))
                failures += why.failedSelfTests
            }
        }
        if problems.containsErrors || !failures.isEmpty {
            throw ServiceError(.badInput,
                               "nothing was \(verb): \(files.count == 1 ? "the file has" : "the files have") problems",
                               details: .digest(problems, lines: failures))
        }
        if !problems.isAllEmpty { warnings(.digest(problems, lines: [])) }
        return (checked, registry)
    }

    /// The plugin-folder types the forms need, admitted as `types add` admits them (with
    /// `addTypes`), and their warnings; without it, a refusal naming them.
    private func folderTypes(of forms: [Admitted], in registry: Registry, store: Store, addTypes: Bool,
                             today: CivilDate, warnings: WarningSink) throws -> [Admitted] {
        let stored = Dictionary(try store.currentVersions(.type).map { ($0.name, $0.source) }, uniquingKeysWith: { a, _ in a })
        var needed: [(form: String, entry: Registry.TypeEntry)] = []
        for form in forms {
            for entry in registry.folderTypes(usedBy: form.name, databaseSources: stored)
            where !needed.contains(where: { $0.entry.name == entry.name }) {
                needed.append((form.name, entry))
            }
        }
        guard !needed.isEmpty else { return [] }
        let plural = forms.count == 1 ? "" : "s"
        guard addTypes else {
            let rows = needed.map { item -> [String] in
                let origin = if case .folder(let f) = item.entry.source, f.origin == .environment { "FORMULARY_PATH" } else { "--plugins" }
                let hidden = item.entry.overrides.first.map { ", overriding the \($0) one" } ?? ""
                return ["  " + item.entry.name, item.entry.file, "(from \(origin)\(hidden); used by form \(item.form))"]
            }
            let files = needed.map(\.entry.file).joined(separator: " ")
            let one = needed.count == 1
            throw ServiceError(
                .badInput,
                "nothing was stored: the form\(plural) use\(forms.count == 1 ? "s" : "") "
                    + "\(one ? "a type" : "types") that only a plugin folder holds, so a later command without that folder "
                    + "could not use \(forms.count == 1 ? "it" : "them") the same way. Store \(one ? "it" : "them") first "
                    + "with 'formulary types add \(files)', or pass --add-types to store \(one ? "it" : "them") with the form\(plural)",
                details: .table(rows))
        }
        var problems: [Diagnostic] = []
        var failures: [String] = []
        var admitted: [Admitted] = []
        for (_, entry) in needed {
            switch registry.admit(type: entry.name, today: today) {
            case .success(let type):
                problems += type.warnings
                admitted.append(type)
            case .failure(let why):
                problems += why.diagnostics
                failures += why.failedSelfTests
            }
        }
        if problems.containsErrors || !failures.isEmpty {
            throw ServiceError(.badInput,
                               "nothing was stored: a type the form\(plural) use\(forms.count == 1 ? "s" : "") (--add-types) has problems",
                               details: .diagnostics(problems, lines: failures))
        }
        if !problems.isEmpty { warnings(.diagnostics(problems, lines: [])) }
        return admitted
    }
}
