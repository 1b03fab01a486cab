import FormularyJSON
import FormularyRules

extension RegistryService {
    /// One side of `types diff`: the type compared and where it comes from.
    public struct DiffSide: Sendable {
        /// The operand as given on the command line.
        public var operand: String
        /// The type as the output names it: its name for a file, else the operand as given
        /// (`age(min: 21)`, `age@6fa0ee01`).
        public var name: String
        /// Where it comes from: a file's path, `built-in (plugins/NAME.field)`, `database`,
        /// or `stored (ORIGIN, WHEN)` for a version the database keeps.
        public var source: String
        /// The version (the SHA-256 of its canonical definition).
        public var version: String
    }

    /// What `types diff` found: the two sides and how the new one compares with the old.
    public struct TypeDiff: JSONObjectRepresentable, Sendable {
        /// The old version.
        public var old: DiffSide
        /// The new version.
        public var new: DiffSide
        /// The comparison; its witnesses are nil for a secure type.
        public var comparison: TypeComparison
        /// The day date checks were resolved for.
        public var today: CivilDate

        /// `{"old": {"operand","type","source","version"}, "new": {…}, "today", "relation",
        /// "newly_rejected": {"status","witness","shortest","reason"}, "newly_accepted": {…},
        /// "rules": [{"rule","relation","old","new","reason"}], "normalization": {"old","new"} or
        /// null, "set_aside": [...], "secure"}`. A witness is null when there is none and
        /// always for a secure type; `reason` is present when the status is `unknown`.
        public func writeFields(to o: inout JSONObjectWriter) {
            func side(_ name: String, _ s: DiffSide) {
                o.object(name) { so in
                    so.field("operand", s.operand)
                    so.field("type", s.name)
                    so.field("source", s.source)
                    so.field("version", s.version)
                }
            }
            side("old", old)
            side("new", new)
            o.field("today", today.description)
            comparison.writeFields(to: &o)
        }
    }

    /// Compares two versions of a field type (`types diff OLD NEW`), each given as a `.field`
    /// file, a type of the registry (`NAME`, `NAME(PARAMS)`) or a version the database keeps
    /// (`NAME@VERSION`, the version's hash or its first digits), as of `today`.
    ///
    /// - Throws: a ``ServiceError``: bad input for a file that cannot be read or has errors,
    ///   or declares no field type; not found for an unknown type or version; the
    ///   database's error for `NAME@VERSION` without a database.
    public func diff(old: String, new: String, today: CivilDate,
                     limits: TypeComparison.Limits = .init()) throws -> TypeDiff {
        let (oldType, oldSide) = try diffOperand(old, today: today)
        let (newType, newSide) = try diffOperand(new, today: today)
        return TypeDiff(old: oldSide, new: newSide, comparison: TypeComparison(old: oldType, new: newType, limits: limits),
                        today: today)
    }

    /// The type an operand of `types diff` names, compiled, and its side.
    private func diffOperand(_ operand: String, today: CivilDate) throws -> (CompiledFieldType, DiffSide) {
        if operand.hasSuffix(".field") || operand.hasSuffix(".form") || operand.contains("/") {
            let files = try Self.readPluginFiles([operand])
            return try compileSoleType(of: files[0], registry: try workspace.registry(extraFiles: files), today: today,
                                       source: operand, operand: operand, shownAs: nil)
        }
        if let at = operand.firstIndex(of: "@") {
            let name = String(operand[..<at]), wanted = operand[operand.index(after: at)...].lowercased()
            let store = try workspace.store(.read)
            let versions = try store.versions(.type, name: name).map(DefinitionVersion.init)
            guard !versions.isEmpty else {
                throw ServiceError(.notFound, "the database keeps no version of a type '\(name)'"
                                   + "; 'formulary types history \(name)' lists what it keeps of a name")
            }
            let matching = versions.filter { $0.hash.hasPrefix(wanted) }
            guard wanted.count >= 4, matching.count == 1, let version = matching.first else {
                let known = versions.map(\.shortHash).joined(separator: ", ")
                let why = wanted.count < 4 ? "give at least 4 digits of the version"
                    : matching.isEmpty ? "no version of '\(name)' starts with '\(wanted)'"
                    : "\(matching.count) versions of '\(name)' start with '\(wanted)'; give more digits"
                throw ServiceError(.notFound, "\(why); the database keeps \(known)")
            }
            // Read as a file of its own, which takes precedence over every source (the
            // database's current version of the name among them).
            let file = PluginFile(path: "\(name)@\(version.shortHash).field", bytes: Array(version.source.utf8),
                                  source: .folder(PluginFolder(path: "", origin: .option)))
            return try compileSoleType(of: file, registry: try workspace.registry(store: store, extraFiles: [file]),
                                       today: today, source: "stored (\(version.origin), \(version.recordedAt))",
                                       operand: operand, shownAs: operand)
        }
        let registry = try workspace.registry()
        let type = try Self.compile(reference: operand, in: registry, today: today)
        let source = switch registry.type(named: type.definition.name) {
        case let entry? where entry.source == .builtin: "built-in (\(entry.file))"
        case let entry? where entry.source == .database: "database"
        case let entry?: entry.file
        case nil: "registry"
        }
        return (type, DiffSide(operand: operand, name: operand, source: source, version: Registry.version(of: type.definition)))
    }

    /// The one field type `file` declares, compiled in `registry` (which holds the file),
    /// shown as `shownAs` (nil: the type's name).
    private func compileSoleType(of file: PluginFile, registry: Registry, today: CivilDate, source: String,
                                 operand: String, shownAs: String?) throws -> (CompiledFieldType, DiffSide) {
        let entries = registry.types(inFile: file.path)
        guard let entry = entries.first(where: { $0.declaration != nil }) else {
            if let diagnostics = entries.first?.diagnostics ?? registry.forms(inFile: file.path).first?.diagnostics,
               diagnostics.containsErrors {
                throw ServiceError(.badInput, "\(file.path) has errors", details: .diagnostics(diagnostics, lines: []))
            }
            let form = registry.forms(inFile: file.path).first.map { " (it declares the form '\($0.name)')" } ?? ""
            throw ServiceError(.badInput, "\(file.path) declares no field type\(form)")
        }
        let reference = TypeReference(name: entry.name, location: SourceLocation(file: file.path, line: 1, column: 1))
        switch registry.compile(reference, today: today) {
        case .failure(let problems):
            throw ServiceError(.badInput, "\(file.path) has errors", details: .diagnostics(problems.diagnostics, lines: []))
        case .success(let type):
            return (type, DiffSide(operand: operand, name: shownAs ?? entry.name, source: source,
                                   version: Registry.version(of: type.definition)))
        }
    }
}
