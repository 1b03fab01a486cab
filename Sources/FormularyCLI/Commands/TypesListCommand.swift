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
        let listing = try RegistryService(workspace: context.workspace).types()
        if format == .json {
            context.stdout.write(bytes: listing.jsonDocument)
        } else {
            let rows = listing.types.map { type in
                [type.name, type.version.map { String($0.prefix(12)) } ?? "broken", type.source.description,
                 type.label ?? "", type.overrides.joined(separator: ", ")]
            }
            let table = TextTable(header: ["NAME", "VERSION", "SOURCE", "LABEL", "OVERRIDES"], rows: rows)
            context.stdout.write(table.render())
        }
        if !listing.broken.isEmpty {
            throw CommandFailure(
                status: .badInput,
                message: "\(ReportNumbers.grouped(listing.broken.count)) of the \(ReportNumbers.grouped(listing.types.count)) types cannot be used (listed with the version 'broken')",
                details: CommandContext.digest(listing.broken)
                    .render(limit: Self.shownProblems, more: "; 'formulary types lint FILE…' shows every problem of a file"))
        }
        return .success
    }
}
