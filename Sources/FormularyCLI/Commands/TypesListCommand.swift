import FormularyJSON
import FormularyKit
import FormularyRules

/// `formulary types list`
struct TypesListCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "list"],
        abstract: "Lists every type: name, version, source, label, and what it overrides.",
        discussion: """
        Types come from, lowest precedence first: the built-in plugins, the database, the
        folders of FORMULARY_PATH, the --plugins folders. A type overrides the same-named
        types of the sources before it; the OVERRIDES column names them. VERSION is the
        start of the SHA-256 of the type's resolved definition ('types show' prints it whole).
        A type that cannot be used (its file has errors, or its base does) is listed with the
        version 'broken'; the listing is then followed by its errors on standard error, each
        said once however many types it stops, and the exit status is 2.
        """,
        examples: ["formulary types list", "formulary --plugins ./types --format json types list"])

    let format: OutputFormat
    let context: CommandContext

    /// Problems shown after a listing with broken types; `types lint` shows them all.
    static let shownProblems = 10

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let registry = try context.loadRegistry()
        var rows: [[String]] = []
        var broken = DiagnosticDigest()
        var brokenCount = 0
        var w = JSONWriter()
        w.array { a in
            for name in registry.typeNames {
                let entry = registry.types[name]!
                var version: String?
                var label: String?
                switch registry.definition(named: name) {
                case .success(let d)?:
                    version = Registry.version(of: d)
                    label = d.label
                case .failure(let problems)?:
                    brokenCount += 1
                    broken.add(registry.withSourceLines(problems.diagnostics.filter { $0.severity == .error }), of: name)
                case nil:
                    break
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
        if brokenCount > 0 {
            let total = registry.typeNames.count
            throw CommandFailure(
                status: .badInput,
                message: "\(brokenCount) of the \(total) types cannot be used (listed with the version 'broken')",
                details: broken.render(limit: Self.shownProblems,
                                       more: "; 'formulary types lint FILE…' shows every problem of a file"))
        }
        return .success
    }
}
