import FormularyJSON
import FormularyKit
import FormularyRules
import FormularyStore

/// `formulary types show NAME`
struct TypesShowCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "show"],
        abstract: "Shows a type's resolved definition, its parameters and its version.",
        discussion: """
        Prints the definition after 'extends' is resolved, in the plugin language, with its
        parameters and defaults, where it comes from, and its version: the SHA-256 of that
        definition, which is what validation runs record. With a database, the versions it
        keeps of the name are listed too ('types history' tells what happened to each).
        """,
        arguments: [ArgumentSpec(name: "NAME", help: "The type's name, as 'types list' shows it.")],
        examples: ["formulary types show credit-card"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.positional("NAME")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.loadRegistry()
        guard let entry = registry.types[name], let resolved = registry.definition(named: name) else {
            throw CommandFailure(status: .badInput,
                                 message: "unknown type '\(name)'" + (Suggestion.nearest(to: name, in: registry.typeNames)
                                     .map { "; did you mean '\($0)'?" } ?? "; 'formulary types list' shows the types there are"))
        }
        let definition: FieldTypeDefinition
        switch resolved {
        case .failure(let problems):
            throw CommandFailure(status: .badInput, message: "type '\(name)' has errors",
                                 details: context.render(problems.diagnostics))
        case .success(let d): definition = d
        }
        let version = Registry.version(of: definition)
        // Every version the database keeps (added, or used by a validation run), oldest first.
        let stored = context.databaseExists ? try context.openStore().versions(.type, name: name) : []
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("name", name)
                o.field("version", version)
                o.field("source", entry.source.kind)
                o.field("location", entry.source.description)
                o.field("file", entry.file)
                o.array("extends") { a in for b in definition.bases { a.value(b) } }
                o.array("overrides") { a in for s in entry.overrides { a.value(s.description) } }
                o.array("parameters") { a in
                    for p in definition.parameters {
                        a.object { po in
                            po.field("name", p.name)
                            po.field("kind", p.defaultValue.kind.rawValue)
                            po.field("default", p.defaultValue.text)
                        }
                    }
                }
                o.array("versions") { a in
                    for v in stored {
                        a.object { vo in
                            vo.field("hash", v.hash)
                            vo.field("origin", v.origin)
                            vo.field("recorded_at", v.recordedAt)
                            vo.field("actor", v.actor)
                            vo.field("current", v.hash == version)
                        }
                    }
                }
                o.field("definition", definition.canonicalSource)
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
            return .success
        }
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
