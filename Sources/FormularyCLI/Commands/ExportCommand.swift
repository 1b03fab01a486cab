import FormularyKit

/// `formulary export`
struct ExportCommand: Command {
    static let spec = CommandSpec(
        path: ["export"],
        abstract: "Prints the whole registry as one JSON document, for client apps.",
        usage: "export",
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
        _ = try context.format(offered: [.text, .json])
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.loadRegistry()
        let export = RegistryExport.make(registry, today: try context.today())
        for item in export.unavailable {
            context.stderr.line("formulary: \(context.errorStyle.yellow("warning")): \(item.kind.rawValue) '\(item.name.forTerminal)' "
                                + "(\(item.file.forTerminal)) has errors and is left out of the export"
                                + (item.problems.first.map { ": \($0.forTerminal)" } ?? ""))
        }
        context.stdout.write(bytes: export.bytes)
        return .success
    }
}
