import FormularyRules
import FormularyStore

/// Which stored values are secret: the one decision every output makes before it shows a
/// stored value or an entry key (`entries list/show`, `history`, every report, the values
/// `validate` quotes in messages).
///
/// A field of a form is secure when its type is `secure` in **any** of:
///
/// 1. a type version that judged that field in any validation run recorded for the form
///    (`run_type_versions`, the versions' stored sources);
/// 2. the registry without plugin folders — the built-in types and the database's — for the
///    form the database registers (and for the form the folders define, by the type names
///    its fields use);
/// 3. the current registry, plugin folders included.
///
/// So a plugin folder can add masking (a folder type that is `secure`) but never take it
/// away: a folder that redefines `cvv` without `secure` does not unmask the cvvs that the
/// built-in type judged or would judge. A field whose type no registry can resolve counts as
/// secure (nobody can tell), and when no registry has the form at all every field does.
package final class SecureFields {
    private let store: Store
    private let registry: Registry
    private var withoutFolders: Registry?
    private var byForm: [String: SecureFieldSet] = [:]

    /// - Parameters:
    ///   - registry: the registry the command uses (plugin folders included).
    ///   - withoutFolders: the same without plugin folders (built-in and database types and
    ///     forms); loaded from `store` when first needed if not given.
    package init(store: Store, registry: Registry, withoutFolders: Registry? = nil) {
        self.store = store
        self.registry = registry
        self.withoutFolders = withoutFolders
    }

    /// The secure fields of the entries of form `name`.
    package func of(form name: String) throws -> SecureFieldSet {
        if let known = byForm[name] { return known }
        let base = try baseRegistry()
        let registries = [base, registry]
        let forms = registries.compactMap { $0.forms[name]?.form }
        var secure = Set<String>()
        for fieldType in try store.fieldTypes(ofForm: name) where fieldType.version.secure {
            secure.insert(fieldType.field)
        }
        let result: SecureFieldSet
        if forms.isEmpty {
            // No registry knows the form: nothing tells which of its columns are secret.
            result = .all
        } else {
            for form in forms {
                for field in form.fields where !secure.contains(field.key) {
                    var resolved = false
                    for r in registries {
                        guard case .success(let definition)? = r.definition(named: field.type.name) else { continue }
                        resolved = true
                        if definition.secure {
                            secure.insert(field.key)
                            break
                        }
                    }
                    if !resolved { secure.insert(field.key) }
                }
            }
            result = SecureFieldSet(fields: secure)
        }
        byForm[name] = result
        return result
    }

    private func baseRegistry() throws -> Registry {
        if let withoutFolders { return withoutFolders }
        let loaded = try Registry.load(folders: [], store: store)
        withoutFolders = loaded
        return loaded
    }
}

/// The secure fields of one form's entries, and how their values and keys are shown.
package struct SecureFieldSet: Sendable, Hashable {
    /// The secure fields; nil when every field counts as secure.
    package let fields: Set<String>?

    package init(fields: Set<String>?) { self.fields = fields }

    /// Every field is secret (the form is unknown).
    package static let all = SecureFieldSet(fields: nil)

    package func contains(_ field: String) -> Bool { fields?.contains(field) ?? true }

    /// A stored value as outputs show it: ``RunReport/secureMask`` for a non-empty value of a
    /// secure field (an empty one hides nothing and says it is empty).
    package func shown(_ value: String?, field: String) -> String? {
        guard let value, !value.isEmpty, contains(field) else { return value }
        return RunReport.secureMask
    }

    /// Whether `key` is the value of one of the entry's secure fields (an import keyed by a
    /// secret column): such a key is never shown.
    package func keyIsSecret(_ key: String, of entry: StoredEntry) -> Bool {
        guard !key.isEmpty else { return false }
        return zip(entry.fields, entry.values).contains { field, value in value == key && contains(field) }
    }

    /// The entry's key as outputs show it: ``RunReport/secureMask`` when it is secret.
    package func shownKey(of entry: StoredEntry) -> String? {
        guard let key = entry.key else { return nil }
        return keyIsSecret(key, of: entry) ? RunReport.secureMask : key
    }
}
