/// `formulary help [COMMAND…]`: the page `formulary COMMAND… --help` shows.
struct HelpCommand: Command {
    static let command = Argument("COMMAND", help: "A command's name, one or two words (types add).", isOptional: true,
                                  isRepeating: true, completion: .commands)
    static let spec = CommandSpec(
        path: ["help"],
        abstract: "Shows help for a command, as 'formulary COMMAND --help' does.",
        discussion: """
        'formulary help' alone shows the overview and the list of commands, like
        'formulary --help'; 'formulary help types' lists the types subcommands. An unknown
        command is a usage error (exit 2) that names the nearest known one.
        """,
        arguments: [command],
        formats: [.text],
        examples: ["formulary help", "formulary help types add"])

    let page: String
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        // Resolved here, so that an unknown name is a usage error before anything runs.
        page = try Help.page(for: arguments.values(Self.command), specs: Formulary.specs)
        self.context = context
    }

    func run() throws -> ExitStatus {
        context.stdout.write(page)
        return .success
    }
}
