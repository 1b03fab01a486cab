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
        let registry = try context.loadRegistry()
        let export = RegistryExport.make(registry, today: try context.today())
        // Items left out for the same first problem (every type below an `extends` chain
        // that goes too deep, say) are named together on one line, not a line each.
        var groups: [(first: String?, items: [RegistryExport.Unavailable])] = []
        var groupOf: [String: Int] = [:]
        for item in export.unavailable {
            if let first = item.problems.first, let index = groupOf[first] {
                groups[index].items.append(item)
            } else {
                if let first = item.problems.first { groupOf[first] = groups.count }
                groups.append((item.problems.first, [item]))
            }
        }
        let warning = "formulary: \(context.errorStyle.yellow("warning")): "
        for (first, items) in groups {
            let because = first.map { ": \($0.forTerminal)" } ?? ""
            if items.count == 1, let item = items.first {
                context.stderr.line(warning + "\(item.kind.rawValue) '\(item.name.forTerminal)' (\(item.file.forTerminal)) has errors and is left out of the export" + because)
            } else {
                let names = DiagnosticDigest.names(items.map(\.name)).forTerminal
                let kinds = Set(items.map(\.kind))
                let what = kinds.count > 1 ? "types and forms" : kinds.contains(.form) ? "forms" : "types"
                context.stderr.line(warning + "\(items.count) \(what) have errors and are left out of the export (\(names))" + because)
            }
        }
        context.stdout.write(bytes: export.bytes)
        return .success
    }
}
