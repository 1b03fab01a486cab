import FormularyKit

/// `formulary export`
struct ExportCommand: Command {
    static let spec = CommandSpec(
        path: ["export"],
        abstract: "Prints the whole registry as one JSON document, for client apps.",
        discussion: """
        Every type (resolved: after 'extends'), with its label, help, placeholder, keyboard,
        parameters, normalization, mask and checks with their messages, and every form with
        its fields and cross-field rules, as one JSON document on standard output. An app
        can format values while they are typed, give a live verdict and a final one from
        the same definitions the batch validation uses; docs/export.md describes the format.
        The output is JSON whatever --format says (text or json). A type or form whose file
        has errors is left out, listed under "unavailable", and named on standard error.
        """,
        examples: ["formulary export > registry.json", "formulary --plugins ./types export"])

    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let result = try RegistryService(workspace: context.workspace).export(today: try context.today())
        // Items left out for the same first problem are named together on one line.
        let warning = "formulary: \(context.errorStyle.yellow("warning")): "
        for group in result.leftOut { context.stderr.line(warning + group.warning.forTerminal) }
        context.stdout.write(bytes: result.export.bytes)
        return .success
    }
}
