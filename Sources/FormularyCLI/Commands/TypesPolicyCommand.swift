import FormularyKit

/// A policy as `types policy` takes it: one of the four, or `default` to drop a setting.
enum PolicyChoice: Equatable, ExpressibleByArgument {
    case policy(CompatibilityPolicy)
    case `default`

    init?(argument: String) {
        if argument == "default" { self = .default; return }
        guard let policy = CompatibilityPolicy(rawValue: argument) else { return nil }
        self = .policy(policy)
    }

    static var noun: String { "a compatibility policy" }
    static var expectation: String { "use backward, forward, full, none, or default" }
}

/// `formulary types policy [POLICY] [--type NAME]`
struct TypesPolicyCommand: Command {
    static let policy = Argument("POLICY", of: PolicyChoice.self, help: "backward, forward, full, none; or default to drop the setting.",
                                 isOptional: true)
    static let type = Option("type", "NAME", help: "Sets this type's own policy instead of the registry's default.",
                             completion: .registry(.types))
    static let spec = CommandSpec(
        path: ["types", "policy"],
        abstract: "Shows or sets the compatibility policies new type versions are held to (audited).",
        discussion: """
        'types add' holds each new version of a type to a policy: backward (it must accept
        every value the current version accepts: nothing valid becomes invalid), forward (it
        must reject every value the current version rejects: nothing invalid becomes valid),
        full (both: the same values), or none. The registry has a default, backward unless
        set, and a type may have its own.

        Without POLICY, shows the registry's default and the types with their own. With
        POLICY, sets the registry's default, or with --type the type's own; 'default' drops
        the setting (the registry's default back to backward, a type back to the registry's).
        Each change is one audit record ('registry.setting').

        --format json prints {"registry","types":{NAME: POLICY}}.

        Exit status: 0 on success, 2 for an unknown policy, 3 on a database failure.
        """,
        options: [type],
        arguments: [policy],
        examples: ["formulary types policy", "formulary types policy full --type email",
                   "formulary types policy default --type email"])

    let choice: PolicyChoice?
    let typeName: String?
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        choice = arguments.values(Self.policy).isEmpty ? nil : try arguments.value(Self.policy)
        typeName = arguments[Self.type]
        if choice == nil, let typeName {
            throw UsageError(message: "--type \(typeName) needs a POLICY to set; 'formulary types policy' shows them all",
                             helpCommand: "types policy")
        }
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let service = RegistryService(workspace: context.workspace)
        if let choice {
            let policy: CompatibilityPolicy? = if case .policy(let p) = choice { p } else { nil }
            try service.setCompatibilityPolicy(policy, type: typeName)
        }
        let policies = try service.compatibilityPolicies()
        if format == .json {
            context.stdout.write(bytes: policies.jsonDocument)
            return .success
        }
        let out = context.stdout
        out.line("registry default: \(policies.registry.rawValue)\(policies.registryIsSet ? "" : " (not set)")")
        if policies.types.isEmpty {
            out.line("No type has a policy of its own.")
        } else {
            out.write(TextTable(header: ["TYPE", "POLICY"],
                                rows: policies.types.sorted { $0.key < $1.key }.map { [$0.key, $0.value.rawValue] }).render())
        }
        return .success
    }
}
