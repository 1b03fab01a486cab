import FormularyJSON

/// What a new version of a shared type must keep of the values its previous version
/// accepted, as Confluent's schema registry holds new schemas to a compatibility mode.
///
/// The registry has a default (`backward` until set otherwise: `formulary types policy
/// POLICY`) and each type may have its own (`formulary types policy NAME POLICY`). `types add`
/// and `POST /v1/types` refuse a version that breaks its type's policy unless told it is
/// meant (`--allow-breaking --reason "…"`, audited).
public enum CompatibilityPolicy: String, CaseIterable, Sendable {
    /// The new version accepts every value the previous one accepted: apps and stored
    /// entries that were valid stay valid. The default.
    case backward
    /// The new version accepts nothing the previous one rejected: whatever the new version
    /// lets in, the previous one (still running somewhere) accepts too.
    case forward
    /// Both: the two versions accept exactly the same values.
    case full
    /// Any change is taken.
    case none

    /// The registry's default when none is set.
    public static let registryDefault = CompatibilityPolicy.backward

    /// Whether a version that rejects values its previous version accepted breaks this policy.
    public var forbidsNewlyRejected: Bool { self == .backward || self == .full }
    /// Whether a version that accepts values its previous version rejected breaks this policy.
    public var forbidsNewlyAccepted: Bool { self == .forward || self == .full }

    /// What it asks, in a few words, for messages.
    public var requirement: String {
        switch self {
        case .backward: "the new version must accept every value the previous one accepted"
        case .forward: "the new version must reject every value the previous one rejected"
        case .full: "the new version must accept exactly the values the previous one accepted"
        case .none: "any change is taken"
        }
    }
}

/// The policies in force: the registry's default and the types that have their own.
public struct CompatibilityPolicies: Sendable, Equatable {
    /// The registry's default (``CompatibilityPolicy/registryDefault`` unless set).
    public var registry: CompatibilityPolicy
    /// Whether the registry's default was set (false: the built-in `backward`).
    public var registryIsSet: Bool
    /// The types with a policy of their own, by name.
    public var types: [String: CompatibilityPolicy]

    /// The policy type `name` is held to.
    public func policy(of name: String) -> CompatibilityPolicy { types[name] ?? registry }

    /// Setting keys (migrations/0013_registry_settings.sql).
    static let registryKey = "compatibility"
    static let typeKeyPrefix = "compatibility."

    /// The policies stored as `settings`; a value that is no policy (written by hand) is
    /// reported, never guessed.
    init(settings: [String: String]) throws {
        func parse(_ key: String, _ value: String) throws -> CompatibilityPolicy {
            guard let policy = CompatibilityPolicy(rawValue: value) else {
                throw ServiceError(.environment, "the registry setting '\(key)' holds '\(value)', which is no compatibility "
                                   + "policy; set it again with 'formulary types policy'")
            }
            return policy
        }
        registry = try settings[Self.registryKey].map { try parse(Self.registryKey, $0) } ?? .registryDefault
        registryIsSet = settings[Self.registryKey] != nil
        var types: [String: CompatibilityPolicy] = [:]
        for (key, value) in settings where key.hasPrefix(Self.typeKeyPrefix) {
            types[String(key.dropFirst(Self.typeKeyPrefix.count))] = try parse(key, value)
        }
        self.types = types
    }
}

extension CompatibilityPolicies: JSONObjectRepresentable {
    /// `{"registry": POLICY, "types": {NAME: POLICY}}`.
    public func writeFields(to o: inout JSONObjectWriter) {
        o.field("registry", registry.rawValue)
        o.object("types") { t in
            for (name, policy) in types.sorted(by: { $0.key < $1.key }) { t.field(name, policy.rawValue) }
        }
    }
}
