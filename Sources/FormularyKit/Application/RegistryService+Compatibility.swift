import FormularyJSON
import FormularyRules
import FormularyStore

/// What a proposed version of a type would change, weighed against the compatibility
/// policy its type is held to: what `types add` decides before it stores a version, and what
/// `POST /v1/types/{name}/compatibility` answers.
public struct CompatibilityCheck: JSONObjectRepresentable, Sendable {
    /// The type's name.
    public var type: String
    /// The policy it is held to.
    public var policy: CompatibilityPolicy
    /// The version it is weighed against (the registry's current one, from any source), or
    /// nil for a name the registry does not have yet: nothing to break.
    public var previousHash: String?
    /// Whether the proposed definition is the current one (nothing changes).
    public var unchanged: Bool
    /// The two versions compared on every value they could be given, before any data
    /// (``TypeComparison``: exact where automata decide it, with shortest witnesses); nil
    /// when the version is unchanged or the name new.
    public var comparison: TypeComparison?
    /// The stored values of the fields of this type, judged by both versions; nil when the
    /// version is unchanged or the name new.
    public var storedValues: StoredValueComparison?
    /// Why the version breaks the policy, one plain sentence each; empty when it does not.
    public var breaches: [String]

    /// Whether the policy lets the version in.
    public var isCompatible: Bool { breaches.isEmpty }

    /// `{"type", "policy", "previous", "unchanged", "compatible", "breaches": [text],
    /// "comparison": {…} | null (as `types diff` writes it), "stored_values": {…} | null}`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("type", type)
        o.field("policy", policy.rawValue)
        if let previousHash { o.field("previous", previousHash) } else { o.nullField("previous") }
        o.field("unchanged", unchanged)
        o.field("compatible", isCompatible)
        o.array("breaches") { a in for b in breaches { a.value(b) } }
        if let comparison {
            o.object("comparison") { comparison.writeFields(to: &$0) }
        } else {
            o.nullField("comparison")
        }
        if let storedValues { o.object("stored_values") { storedValues.writeFields(to: &$0) } } else { o.nullField("stored_values") }
    }
}

extension RegistryService {
    /// The compatibility policies in force (migration 0013; `backward` where none is set).
    public func compatibilityPolicies() throws -> CompatibilityPolicies {
        guard workspace.databaseExists else { return try CompatibilityPolicies(settings: [:]) }
        return try CompatibilityPolicies(settings: try workspace.store(.read).registrySettings())
    }

    /// Sets the registry's default policy (`type` nil) or type `type`'s own (`policy` nil:
    /// back to the registry's default), audited as `registry.setting`.
    public func setCompatibilityPolicy(_ policy: CompatibilityPolicy?, type: String?) throws {
        let store = try workspace.store(.write)
        let key = type.map { CompatibilityPolicies.typeKeyPrefix + $0 } ?? CompatibilityPolicies.registryKey
        try store.setRegistrySetting(key: key, value: policy?.rawValue, actor: workspace.settings.actor)
    }

    /// Weighs each type declared in `pluginFiles` (one per file, checked as `types add` checks
    /// them) against the registry's current version of its name and the policy it is held to,
    /// by judging every stored value of the fields of that type with both versions.
    public func compatibility(pluginFiles: [PluginFile], today: CivilDate,
                              warnings: WarningSink) throws -> [CompatibilityCheck] {
        let store = try workspace.store(.read)
        let checked = try check(pluginFiles: pluginFiles, kind: .type, today: today, store: store, warnings: warnings)
        return try compatibility(of: checked.admitted, proposed: checked.registry, store: store, today: today)
    }

    /// ``compatibility(pluginFiles:today:warnings:)`` of types already checked, in `proposed`
    /// (the registry with their files).
    func compatibility(of admitted: [Admitted], proposed: Registry, store: Store,
                       today: CivilDate) throws -> [CompatibilityCheck] {
        let current = try workspace.registry(store: store)
        let policies = try CompatibilityPolicies(settings: try store.registrySettings())
        var checks: [CompatibilityCheck] = []
        for admitted in admitted {
            let policy = policies.policy(of: admitted.name)
            guard case .success(let previous)? = current.definition(named: admitted.name) else {
                checks.append(CompatibilityCheck(type: admitted.name, policy: policy, previousHash: nil, unchanged: false,
                                                 comparison: nil, storedValues: nil, breaches: []))
                continue
            }
            let previousHash = SHA256.hex(previous.canonicalSource)
            guard previous.canonicalSource != admitted.source else {
                checks.append(CompatibilityCheck(type: admitted.name, policy: policy, previousHash: previousHash,
                                                 unchanged: true, comparison: nil, storedValues: nil, breaches: []))
                continue
            }
            let comparison = Self.compare(admitted.name, current: current, proposed: proposed, today: today)
            let values = try store.read {
                try StoredValueComparison.compare(type: admitted.name, store: store, current: current,
                                                  proposed: proposed, today: today)
            }
            checks.append(CompatibilityCheck(
                type: admitted.name, policy: policy, previousHash: previousHash, unchanged: false,
                comparison: comparison, storedValues: values,
                breaches: Self.breaches(of: policy, comparison: comparison) + Self.breaches(of: policy, values: values)))
        }
        return checks
    }

    /// The current and the proposed version of type `name`, compared (nil when either cannot
    /// be compiled without arguments: its parameters have no defaults).
    static func compare(_ name: String, current: Registry, proposed: Registry, today: CivilDate) -> TypeComparison? {
        func compiled(_ registry: Registry) -> CompiledFieldType? {
            guard let declaration = registry.type(named: name)?.declaration,
                  case .success(let type) = registry.compile(TypeReference(name: name, location: declaration.location),
                                                             today: today) else { return nil }
            return type
        }
        guard let old = compiled(current), let new = compiled(proposed) else { return nil }
        return TypeComparison(old: old, new: new)
    }

    /// The sentences saying how the versions themselves break `policy`, with the shortest
    /// value that shows it (none for a secure type).
    static func breaches(of policy: CompatibilityPolicy, comparison: TypeComparison?) -> [String] {
        guard let comparison else { return [] }
        func example(_ d: TypeComparison.Difference) -> String {
            if comparison.secure { return " (a secure type: no value is shown)" }
            return d.witness.map { ", e.g. \(JSONValue.string($0).description)" } ?? ""
        }
        var out: [String] = []
        if policy.forbidsNewlyRejected && comparison.newlyRejected.status == .some {
            out.append("it rejects values the current version accepts" + example(comparison.newlyRejected))
        }
        if policy.forbidsNewlyAccepted && comparison.newlyAccepted.status == .some {
            out.append("it accepts values the current version rejects" + example(comparison.newlyAccepted))
        }
        return out
    }

    /// The sentences saying how the stored values break `policy`.
    static func breaches(of policy: CompatibilityPolicy, values: StoredValueComparison) -> [String] {
        var out: [String] = []
        if policy.forbidsNewlyRejected && values.newlyRejected > 0 {
            out.append("\(Self.count(values.newlyRejected)) valid under the current version would be rejected ("
                       + Self.examples(values.rejectedExamples) + ")")
        }
        if policy.forbidsNewlyAccepted && values.newlyAccepted > 0 {
            out.append("\(Self.count(values.newlyAccepted)) invalid under the current version would be accepted ("
                       + Self.examples(values.acceptedExamples) + ")")
        }
        return out
    }

    private static func count(_ n: Int) -> String {
        "\(ReportNumbers.grouped(n)) stored value\(n == 1 ? "" : "s")"
    }

    private static func examples(_ list: [StoredValueComparison.Example]) -> String {
        "e.g. " + list.map { "entry \($0.entry) \($0.field)" }.joined(separator: ", ")
    }
}
