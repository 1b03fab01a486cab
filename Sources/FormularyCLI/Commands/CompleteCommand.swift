import FormularyKit

/// `formulary __complete types|forms` (hidden): the names the completion scripts offer
/// where a command takes a type or a form.
///
/// The scripts are generated once, but the names depend on the database and plugin
/// folders of the moment, so they ask the binary itself each time, passing the --db and
/// --plugins of the command line being completed. A missing database is no error: the
/// types are then the built-in and folder ones, and there are no forms but the folders'.
struct CompleteCommand: Command {
    static let kind = Argument("KIND", of: RegistryNames.self, spelling: "types|forms", help: "Which names to print.",
                               completion: .values(RegistryNames.allValueStrings))
    static let spec = CommandSpec(
        path: ["__complete"],
        abstract: "Prints the names of the registry's types or forms, one to a line, for the completion scripts.",
        discussion: """
        The names are those of the registry the settings name (--db, --plugins,
        FORMULARY_DB, FORMULARY_PATH), sorted. The database is read, never created.
        """,
        arguments: [kind],
        formats: [.text],
        examples: ["formulary --db signups.db __complete forms"],
        isHidden: true)

    let kind: RegistryNames
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        kind = try arguments.value(Self.kind)
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.workspace.registry()
        let names = switch kind {
        case .types: registry.typeNames
        case .forms: registry.forms.keys.sorted()
        }
        // Each name is a word of a command line: one that a shell could not take as it is
        // (it never is one, by the naming rules) is left out rather than offered broken.
        for name in names where !name.contains(where: { $0.isWhitespace || $0.isNewline }) {
            context.stdout.line(name)
        }
        return .success
    }
}
