import FormularyJSON
import FormularyKit
import FormularyRules

/// `formulary types list`
struct TypesListCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "list"],
        abstract: "Lists every type: name, version, source, label, and what it overrides.",
        usage: "types list",
        discussion: """
        Types come from, lowest precedence first: the built-in plugins, the database, the
        folders of FORMULARY_PATH, the --plugins folders. A type overrides the same-named
        types of the sources before it; the OVERRIDES column names them. VERSION is the
        start of the SHA-256 of the type's resolved definition ('types show' prints it whole).
        A type whose file has errors is listed with the version 'broken'.
        """,
        examples: ["formulary types list", "formulary --plugins ./types --format json types list"])

    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: [.text, .json])
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.loadRegistry()
        var rows: [[String]] = []
        var w = JSONWriter()
        w.array { a in
            for name in registry.typeNames {
                let entry = registry.types[name]!
                var version: String?
                var label: String?
                if case .success(let d)? = registry.definition(named: name) {
                    version = Registry.version(of: d)
                    label = d.label
                }
                let overrides = entry.overrides.map(\.description)
                rows.append([name, version.map { String($0.prefix(12)) } ?? "broken", entry.source.description,
                             label ?? "", overrides.joined(separator: ", ")])
                a.object { o in
                    o.field("name", name)
                    if let version { o.field("version", version) } else { o.nullField("version") }
                    o.field("source", entry.source.kind)
                    o.field("location", entry.source.description)
                    o.field("file", entry.file)
                    if let label { o.field("label", label) } else { o.nullField("label") }
                    o.array("overrides") { oa in for s in overrides { oa.value(s) } }
                }
            }
        }
        if format == .json {
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            let table = TextTable(header: ["NAME", "VERSION", "SOURCE", "LABEL", "OVERRIDES"], rows: rows)
            context.stdout.write(table.render())
        }
        return .success
    }
}
