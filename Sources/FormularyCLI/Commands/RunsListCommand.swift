import FormularyKit

/// `formulary runs list [--form NAME] [--limit N]`
struct RunsListCommand: Command {
    static let form = Option("form", "NAME", help: "Only runs that judged this form (and its counts).",
                             completion: .registry(.forms))
    static let limit = Option("limit", "N", of: Count.self, help: "At most N runs (default: all).",
                              expecting: "use a whole number, 0 for all")
    static let spec = CommandSpec(
        path: ["runs", "list"],
        abstract: "Lists validation runs: id, when, actor, forms, checked, failing, status.",
        discussion: """
        One line per run, newest first: its id (for 'report --run ID'), when it started, who
        ran it, the forms it judged, how many entries it checked and how many failed (with
        the share), and its status (complete, incomplete, or running). --form keeps the runs
        that judged that form, with that form's counts. --format json prints one array.
        """,
        options: [form, limit],
        examples: ["formulary runs list", "formulary runs list --form signup --format json"])

    let form: String?
    let limit: Int
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        form = arguments[Self.form]
        limit = try arguments.value(Self.limit)?.value ?? 0
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let runs = try RunsService(workspace: context.workspace).list(form: form, limit: limit)
        if format == .json {
            context.stdout.write(bytes: runs.jsonDocument)
            return .success
        }
        if runs.isEmpty {
            context.stdout.line("No validation run yet; run 'formulary validate' first.")
            return .success
        }
        let rows = runs.map { run in
            [String(run.id), run.startedAt, run.actor, run.forms.joined(separator: ", "),
             ReportNumbers.grouped(run.entriesChecked),
             "\(ReportNumbers.grouped(run.entriesFailing)) (\(run.failingPercent))", run.status]
        }
        context.stdout.write(TextTable(header: ["ID", "STARTED", "ACTOR", "FORMS", "CHECKED", "FAILING", "STATUS"],
                                       rows: rows).render())
        return .success
    }
}
