import FormularyKit
import FormularyRules

/// `formulary types show NAME`
struct TypesShowCommand: Command {
    static let name = Argument("NAME", help: "The type's name, as 'types list' shows it.",
                               completion: .registry(.types))
    static let spec = CommandSpec(
        path: ["types", "show"],
        abstract: "Shows a type's resolved definition, its parameters and its version.",
        discussion: """
        Prints the definition after 'extends' is resolved, in the plugin language, with its
        parameters and defaults, where it comes from, and its version: the SHA-256 of that
        definition, which is what validation runs record. With a database, the versions it
        keeps of the name are listed too ('types history' tells what happened to each).
        """,
        arguments: [name],
        examples: ["formulary types show credit-card"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.value(Self.name)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let type = try RegistryService(workspace: context.workspace).describe(type: name)
        if format == .json {
            context.stdout.write(bytes: type.jsonDocument)
            return .success
        }
        let (entry, definition, version, stored) = (type.entry, type.definition, type.version, type.stored)
        var rows: [[String]] = [
            ["name", name],
            ["version", version],
            ["source", "\(entry.source) (\(entry.file))"],
        ]
        if !definition.bases.isEmpty { rows.append(["extends", definition.bases.joined(separator: " → ")]) }
        if !entry.overrides.isEmpty { rows.append(["overrides", entry.overrides.map(\.description).joined(separator: ", ")]) }
        for p in definition.parameters {
            rows.append(["parameter", "\(p.name) = \(p.defaultValue.kind == .string ? "\"\(p.defaultValue.text)\"" : p.defaultValue.text) (\(p.defaultValue.kind.rawValue))"])
        }
        for v in stored {
            let mark = v.hash == version ? " (this one)" : ""
            rows.append(["stored version", "\(v.shortHash)  \(v.origin)  \(v.recordedAt)  by \(v.actor)\(mark)"])
        }
        context.stdout.write(TextTable(rows: rows).render())
        context.stdout.line()
        // Canonical strings escape their control characters, but a regex literal is copied as
        // written: escape each line (tabs kept) so that nothing in it acts on the terminal.
        context.stdout.write(definition.canonicalSource.split(separator: "\n", omittingEmptySubsequences: false)
            .map { TerminalText.escaped(String($0), keepingTabs: true) }.joined(separator: "\n"))
        return .success
    }
}
