import FormularyKit

/// `formulary types add FILE...`
struct TypesAddCommand: Command {
    static let file = Argument("FILE", help: "A .field file declaring one type.", isRepeating: true, completion: .files)
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

        Exit status: 0 when stored (or unchanged), 2 when a file has errors or failing examples.
        """,
        arguments: [file],
        formats: [.text],
        examples: ["formulary types add my-types/visa.field"])

    let files: [String]
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.values(Self.file)
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let stderr = context.stderr
        let admission = try RegistryService(workspace: context.workspace)
            .addTypes(files, today: try context.today()) { stderr.write(CommandContext.render($0)) }
        DefinitionFiles.report(admission.types, noun: "type", to: context.stdout)
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
