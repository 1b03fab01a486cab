import FormularyKit

/// `formulary report [--run ID] [--form NAME] [--by rule|field|type|entry]`
struct ReportCommand: Command {
    static let spec = CommandSpec(
        path: ["report"],
        abstract: "Shows the failures of a validation run, grouped, worst first.",
        discussion: """
        Reports the newest validation run unless --run names one ('runs list' lists them).
        --form narrows the report to one form; without --run it picks that form's newest
        run. Failures are grouped by rule (the default), field, type or entry, the worst
        groups first (the most errors, then the most failures), with the change against the
        previous run of the same form (51 → 38, −13), the share of entries failing, the 10
        most frequent failing values of each rule and field, and the entries newly failing
        (with an error they did not have) and fixed. Each failure carries the value it
        judged and the entry's source, FILE:LINE of its import.

        --format text prints aligned tables; json one document; csv one record per failed
        rule (RFC 4180, CRLF line ends; cells a spreadsheet would run as a formula start
        with '). --format html writes one self-contained page, with bar charts of failures
        by rule and by field and the failing share of the recent runs, to --output (default
        formulary-report-run-ID.html in the current folder) and prints where it went; the
        other formats go to standard output unless --output is given. Reports are counted
        and sorted by the database and written as they come, so memory stays flat however
        many entries fail. Values of secure fields never appear: a value, or an entry key,
        that is one is shown as •••.
        """,
        options: [
            .option("run", "ID", of: RunID.self, help: "The run to report (default: the newest)."),
            .option("form", "NAME", help: "Only this form (and, without --run, its newest run).", completion: .registry(.forms)),
            .option("by", "KEY", of: ReportGrouping.self, help: "Group failures by rule, field, type or entry (default rule)."),
            .option("output", "PATH", help: "Write the report to this file.", completion: .files),
        ],
        formats: [.text, .json, .csv, .html],
        examples: [
            "formulary report",
            "formulary report --by field --form signup",
            "formulary report --run 12 --format html --output run-12.html",
            "formulary report --format csv > failures.csv",
        ])

    let runID: Int64?
    let form: String?
    let grouping: ReportGrouping
    let output: String?
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        runID = try arguments.value("run", as: RunID.self)?.value
        form = arguments.value("form")
        grouping = try arguments.value("by", as: ReportGrouping.self) ?? .rule
        output = try arguments.value("output", as: OutputPath.self)?.path
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let service = ReportService(workspace: context.workspace)
        let rendering: ReportService.Format = switch format {
        case .text: .text(colour: output == nil && context.style.enabled)
        case .json: .json
        case .csv: .csv
        case .html: .html
        }
        let htmlDefault = format == .html && output == nil
        guard let path = try output ?? (htmlDefault ? ReportFile.defaultHTMLName(run: service.runID(run: runID, form: form)) : nil) else {
            let stdout = context.stdout
            try service.render(run: runID, form: form, by: grouping, format: rendering,
                               to: ReportSink { stdout.write(bytes: $0) })
            return .success
        }
        let id = try service.save(run: runID, form: form, by: grouping, format: rendering, to: path, chosen: output != nil)
        context.stdout.line("Report of run \(id) written to \(path.forTerminal)")
        return .success
    }
}
