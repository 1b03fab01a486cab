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
    /// The stored entries of the forms that use the type, judged with the proposed version
    /// as `impact` judges them; nil when there was nothing to judge.
    public var entries: ImpactService.Report?
    /// Why the version breaks the policy, one plain sentence each; empty when it does not.
    public var breaches: [String]

    /// Whether the policy lets the version in.
    public var isCompatible: Bool { breaches.isEmpty }

    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("type", type)
        o.field("policy", policy.rawValue)
        if let previousHash { o.field("previous", previousHash) } else { o.nullField("previous") }
        o.field("unchanged", unchanged)
        o.field("compatible", isCompatible)
        o.array("breaches") { a in for b in breaches { a.value(b) } }
        if let entries { o.object("entries") { entries.writeFields(to: &$0) } } else { o.nullField("entries") }
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
    /// them) against the registry's current version of its name and the policy it is held to:
    /// by judging the stored entries of the forms that use it, as `impact` does.
    public func compatibility(pluginFiles: [PluginFile], today: CivilDate,
                              warnings: WarningSink) throws -> [CompatibilityCheck] {
        let store = try workspace.store(.read)
        let checked = try check(pluginFiles: pluginFiles, kind: .type, today: today, store: store, warnings: warnings)
        return try compatibility(of: checked.admitted, files: pluginFiles, store: store, today: today)
    }

    /// ``compatibility(pluginFiles:today:warnings:)`` of types already checked, `admitted[i]`
    /// declared by `files[i]`.
    func compatibility(of admitted: [Admitted], files: [PluginFile], store: Store,
                       today: CivilDate) throws -> [CompatibilityCheck] {
        precondition(admitted.count == files.count, "one admitted type per file")
        let current = try workspace.registry(store: store)
        let policies = try CompatibilityPolicies(settings: try store.registrySettings())
        var checks: [CompatibilityCheck] = []
        for (admitted, file) in zip(admitted, files) {
            let policy = policies.policy(of: admitted.name)
            guard case .success(let previous)? = current.definition(named: admitted.name) else {
                checks.append(CompatibilityCheck(type: admitted.name, policy: policy, previousHash: nil, unchanged: false,
                                                 entries: nil, breaches: []))
                continue
            }
            let previousHash = SHA256.hex(previous.canonicalSource)
            guard previous.canonicalSource != admitted.source else {
                checks.append(CompatibilityCheck(type: admitted.name, policy: policy, previousHash: previousHash,
                                                 unchanged: true, entries: nil, breaches: []))
                continue
            }
            let report = try ImpactService(workspace: workspace)
                .impact(pluginFiles: [file], today: today, warnings: { _ in })
            checks.append(CompatibilityCheck(
                type: admitted.name, policy: policy, previousHash: previousHash, unchanged: false,
                entries: report.forms.isEmpty ? nil : report,
                breaches: policy == .none ? [] : Self.breaches(of: policy, entries: report)))
        }
        return checks
    }

    /// The sentences saying how the stored entries break `policy`.
    static func breaches(of policy: CompatibilityPolicy, entries report: ImpactService.Report) -> [String] {
        var out: [String] = []
        if policy.forbidsNewlyRejected && report.newlyFailing > 0 {
            out.append("\(ReportNumbers.grouped(report.newlyFailing)) stored entr\(report.newlyFailing == 1 ? "y" : "ies") "
                       + "valid under the previous version would fail (\(Self.exampleIDs(report, .newlyFailing)))")
        }
        if policy.forbidsNewlyAccepted && report.fixed > 0 {
            out.append("\(ReportNumbers.grouped(report.fixed)) stored entr\(report.fixed == 1 ? "y" : "ies") "
                       + "invalid under the previous version would pass (\(Self.exampleIDs(report, .fixed)))")
        }
        return out
    }

    private static func exampleIDs(_ report: ImpactService.Report, _ change: ImpactChange) -> String {
        var seen: [Int64] = []
        for e in report.examples where e.change == change && !seen.contains(e.entry) { seen.append(e.entry) }
        return "e.g. entr\(seen.count == 1 ? "y" : "ies") " + seen.prefix(5).map(String.init).joined(separator: ", ")
    }
}
