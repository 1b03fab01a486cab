import FormularyJSON
import FormularyRules
import FormularyStore

extension RegistryService {
    /// A type as `types show` describes it: its resolved definition, where it comes from,
    /// its version, and the versions the database keeps of the name.
    public struct TypeDescription: JSONObjectRepresentable, Sendable {
        /// The type's name.
        public var name: String
        /// The registry's entry: source, file, what it overrides.
        package var entry: Registry.TypeEntry
        /// The definition after `extends` is resolved.
        public var definition: FieldTypeDefinition
        /// Its version: the SHA-256 of the canonical definition.
        public var version: String
        /// Every version the database keeps of the name, oldest first.
        public var stored: [DefinitionVersion]

        /// `{"name", "version", "source", "location", "file", "extends", "overrides",
        /// "parameters", "versions", "definition"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            o.field("version", version)
            o.field("source", entry.source.kind)
            o.field("location", entry.source.description)
            o.field("file", entry.file)
            o.array("extends") { a in for b in definition.bases { a.value(b) } }
            o.array("overrides") { a in for s in entry.overrides { a.value(s.description) } }
            o.array("parameters") { a in
                for p in definition.parameters {
                    a.object { po in
                        po.field("name", p.name)
                        po.field("kind", p.defaultValue.kind.rawValue)
                        po.field("default", p.defaultValue.text)
                    }
                }
            }
            o.array("versions") { a in
                for v in stored {
                    a.object { vo in
                        vo.field("hash", v.hash)
                        vo.field("origin", v.origin)
                        vo.field("recorded_at", v.recordedAt)
                        vo.field("actor", v.actor)
                        vo.field("current", v.hash == version)
                    }
                }
            }
            o.field("definition", definition.canonicalSource)
        }
    }

    /// The type `name` as the registry resolves it, with the versions the database keeps.
    ///
    /// - Throws: a ``ServiceError`` (not found) for an unknown name (with the nearest
    ///   known one) or a type with errors (with its diagnostics).
    public func describe(type name: String) throws -> TypeDescription {
        let registry = try workspace.registry()
        guard let entry = registry.type(named: name), let resolved = registry.definition(named: name) else {
            throw ServiceError(.notFound, "unknown type '\(name)'" + (Suggestion.nearest(to: name, in: registry.typeNames)
                .map { "; did you mean '\($0)'?" } ?? "; 'formulary types list' shows the types there are"))
        }
        let definition: FieldTypeDefinition
        switch resolved {
        case .failure(let problems):
            throw ServiceError(.badInput, "type '\(name)' has errors", details: .diagnostics(problems.diagnostics, lines: []))
        case .success(let d): definition = d
        }
        return TypeDescription(name: name, entry: entry, definition: definition, version: Registry.version(of: definition),
                               stored: try storedVersions(.type, name: name))
    }

    /// One form as `forms list` lists it.
    public struct FormSummary: JSONObjectRepresentable, Sendable {
        /// The form's name.
        public var name: String
        /// Its version (SHA-256 of the canonical definition); nil when it has errors.
        public var version: String?
        /// Where it comes from.
        public var source: TypeSource
        /// How many fields it declares.
        public var fields: Int
        /// How many entries of it the database holds.
        public var entries: Int

        /// `{"name", "version" (null when broken), "source", "location", "fields", "entries"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            if let version { o.field("version", version) } else { o.nullField("version") }
            o.field("source", source.kind)
            o.field("location", source.description)
            o.field("fields", fields)
            o.field("entries", entries)
        }
    }

    /// Every form of the registry (database and plugin folders), by name, with its number
    /// of entries.
    public func forms() throws -> [FormSummary] {
        let store = workspace.databaseExists ? try workspace.store(.read) : nil
        let registry = try workspace.registry()
        return registry.forms.keys.sorted().map { name in
            let entry = registry.forms[name]!
            return FormSummary(name: name, version: entry.form.map { Registry.version(of: $0) }, source: entry.source,
                               fields: entry.form?.fields.count ?? 0,
                               entries: (try? store?.entryCount(form: name)) ?? 0)
        }
    }

    /// A form as `forms show` describes it.
    public struct FormDescription: JSONObjectRepresentable, Sendable {
        /// The form's name.
        public var name: String
        /// The registry's entry: source and file.
        package var entry: Registry.FormEntry
        /// The checked definition.
        public var form: FormDefinition
        /// Its version: the SHA-256 of the canonical definition.
        public var version: String

        /// `{"name", "version", "source", "location", "label"?, "fields", "definition"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            o.field("version", version)
            o.field("source", entry.source.kind)
            o.field("location", entry.source.description)
            o.fieldIfPresent("label", form.label)
            o.array("fields") { a in
                for f in form.fields {
                    a.object { fo in
                        fo.field("key", f.key)
                        fo.field("type", f.type.description)
                        fo.field("required", f.required)
                        fo.fieldIfPresent("label", f.label)
                    }
                }
            }
            o.field("definition", form.canonicalSource)
        }
    }

    /// The form `name` as the registry has it.
    ///
    /// - Throws: a ``ServiceError`` (not found) for an unknown name (with the nearest
    ///   known one) or a form with errors (with its diagnostics).
    public func describe(form name: String) throws -> FormDescription {
        let registry = try workspace.registry()
        guard let entry = registry.forms[name] else {
            throw ServiceError(.notFound, "unknown form '\(name)'"
                + (Suggestion.nearest(to: name, in: registry.forms.keys.sorted())
                    .map { "; did you mean '\($0)'?" } ?? "; 'formulary forms list' shows the forms there are"))
        }
        guard let form = entry.form, !entry.diagnostics.containsErrors else {
            throw ServiceError(.badInput, "form '\(name)' has errors", details: .diagnostics(entry.diagnostics, lines: []))
        }
        return FormDescription(name: name, entry: entry, form: form, version: Registry.version(of: form))
    }
}
