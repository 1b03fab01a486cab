import FormularyKit

/// `formulary types lint FILE...`
struct TypesLintCommand: Command {
    static let file = Argument("FILE", help: "A .field or .form file.", isRepeating: true, completion: .files)
    static let spec = CommandSpec(
        path: ["types", "lint"],
        abstract: "Parses and type-checks plugin files and prints every diagnostic.",
        discussion: """
        Checks .field and .form files without a database: syntax, inheritance (a base may
        come from the registry or from another file given here), parameters, and the
        load-time checks (contradictory ranges, masks, regexes that do not compile or that
        backtrack badly). Diagnostics go to standard error as file:line:column with the line
        and a caret; files without problems are listed as 'ok'. As clang does, at most 20
        diagnostics of a file are shown, then a count of the others; --format json lists
        them all. A file that is plainly no plugin file (a binary, CSV data, JSON) gets one
        diagnostic that says what it looks like.

        Exit status: 0 when no file has an error (warnings allowed), 2 otherwise.
        """,
        arguments: [file],
        examples: ["formulary types lint my-types/*.field", "formulary types lint signup.form"])

    let files: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.values(Self.file)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let report = try RegistryService(workspace: context.workspace).lint(files, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: report.jsonDocument)
        } else {
            for file in report.files where file.diagnostics.isEmpty {
                context.stdout.line("ok  \(file.file.forTerminal)")
            }
            // A diagnostic that several files share (every type below an `extends` chain
            // that goes too deep has the same one) is printed once, with a count.
            context.stderr.write(CommandContext.digest(report.named).render())
        }
        return report.hasErrors ? .badInput : .success
    }
}
