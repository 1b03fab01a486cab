import FormularyKit

/// `formulary types add FILE...`
struct TypesAddCommand: Command {
    static let file = Argument("FILE", help: "A .field file declaring one type.", isRepeating: true, completion: .files)
    static let allowBreaking = Flag("allow-breaking",
                                    help: "Stores a version that breaks its compatibility policy (needs --reason).")
    static let reason = Option("reason", "TEXT", help: "Why a breaking version is meant; the audit log records it.")
    static let spec = CommandSpec(
        path: ["types", "add"],
        abstract: "Lints and self-tests types, then stores each as a new version (audited).",
        discussion: """
        Each file must declare one field type. It is linted (as 'types lint' does), its
        accept/reject examples are run, and only when every file passes are the types stored,
        all in one transaction: each as a new version keyed by the SHA-256 of its resolved
        definition. Adding a definition that is already current changes nothing and says so.
        Database types override built-in ones of the same name and are overridden by plugin
        folders.

        A new version of a name the registry already has is held to the type's compatibility
        policy ('formulary types policy'; backward unless set): under backward it must accept
        every value the current version accepts, under forward reject every value it rejects,
        under full both, under none anything goes. The stored entries of the forms that use
        the type are judged with the new version, as 'impact' judges them; a version that
        breaks the policy is refused, saying how, with entry ids as examples, and nothing is
        stored. --allow-breaking --reason TEXT stores it anyway; the audit record of the
        addition keeps the policy, what broke it and the reason.

        Exit status: 0 when stored (or unchanged), 2 when a file has errors or failing
        examples, or a version breaks its compatibility policy without --allow-breaking.
        """,
        options: [allowBreaking, reason],
        arguments: [file],
        formats: [.text],
        examples: ["formulary types add my-types/visa.field",
                   "formulary types add --allow-breaking --reason \"one-letter TLDs are not real\" email.field"])

    let files: [String]
    /// The reason given with --allow-breaking; nil without it.
    let breakingReason: String?
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.values(Self.file)
        let reason = try arguments.value(Self.reason)
        switch (arguments[Self.allowBreaking], reason) {
        case (true, nil):
            throw UsageError(message: "--allow-breaking needs --reason TEXT: say why the breaking change is meant",
                             helpCommand: "types add")
        case (false, .some):
            throw UsageError(message: "--reason goes with --allow-breaking; a compatible version needs no reason",
                             helpCommand: "types add")
        default:
            breakingReason = reason
        }
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let stderr = context.stderr
        let admission = try RegistryService(workspace: context.workspace)
            .addTypes(files, today: try context.today(), allowBreaking: breakingReason) {
                stderr.write(CommandContext.render($0))
            }
        DefinitionFiles.report(admission.types, noun: "type", to: context.stdout)
        for check in admission.compatibility where !check.isCompatible {
            context.stdout.line("\(check.type.forTerminal): stored although it breaks its policy \(check.policy.rawValue) "
                                + "(--allow-breaking; the reason is in the audit log):")
            for breach in check.breaches { context.stdout.line("  \(breach)") }
        }
        return .success
    }
}

/// How `types add` and `forms add` say what they stored.
enum DefinitionFiles {
    static func report(_ outcomes: [AddOutcome], noun: String, to out: OutputStream) {
        for outcome in outcomes {
            let v = outcome.version
            switch outcome {
            case .unchanged:
                out.line("\(v.name.forTerminal): unchanged; version \(v.shortHash) is already the current \(noun)")
            case .added(_, let isNew, let previous):
                let was = previous.map { " (was \($0.shortHash))" } ?? ""
                out.line("\(v.name.forTerminal): added \(isNew ? "new " : "earlier ")version \(v.shortHash)\(was)")
            }
        }
    }
}
