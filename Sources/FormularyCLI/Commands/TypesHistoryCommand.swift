import FormularyKit

/// `formulary types history NAME`
struct TypesHistoryCommand: Command {
    static let name = Argument("NAME", help: "The type's name; it need not be current any more.",
                               completion: .registry(.types))
    static let spec = CommandSpec(
        path: ["types", "history"],
        abstract: "Every stored version of a type: when, by whom, hash, what changed.",
        discussion: """
        Lists what happened to the name in the database, oldest first: each 'add' with the
        version it made current, each 'retire', and versions recorded because a validation
        run used a built-in or folder type. The CHANGE column says how a version differs
        from the one before it (lines added and removed in the canonical definition).
        """,
        arguments: [name],
        examples: ["formulary types history credit-card"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        try DefinitionHistory.print(.type, name: name, context: context, format: format)
    }
}

/// `formulary types retire NAME`
struct TypesRetireCommand: Command {
    static let name = Argument("NAME", help: "The name of a type added to the database with 'types add'.",
                               completion: .registry(.types))
    static let spec = CommandSpec(
        path: ["types", "retire"],
        abstract: "Hides a database type from the registry; its versions stay (audited).",
        discussion: """
        After retiring, the name resolves to whatever the other sources have (a built-in type
        of that name, or a plugin folder's), or to nothing. Every version stays in the
        database, so earlier validation results still name the version that judged them.
        'types add' brings a type back.
        """,
        arguments: [name],
        formats: [.text],
        examples: ["formulary types retire visa"])

    let name: String
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let retired = try RegistryService(workspace: context.workspace).retire(.type, name: name)
        context.stdout.line("\(name.forTerminal): retired (its last version was \(retired.shortHash))")
        return .success
    }
}

/// `types history`'s listing.
enum DefinitionHistory {
    static func print(_ kind: DefinitionKind, name: String, context: CommandContext,
                      format: OutputFormat) throws -> ExitStatus {
        let rows = try HistoryService(workspace: context.workspace).history(kind, name: name)
        if format == .json {
            context.stdout.write(bytes: rows.jsonDocument)
        } else {
            let table = TextTable(header: ["WHEN", "BY", "ACTION", "VERSION", "ORIGIN", "CHANGE"],
                                  rows: rows.map { [$0.at, $0.actor, $0.action, String($0.hash.prefix(12)), $0.origin, $0.change] })
            context.stdout.write(table.render())
        }
        return .success
    }
}
