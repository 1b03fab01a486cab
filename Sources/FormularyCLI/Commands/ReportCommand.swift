import FormularyKit

/// `formulary report [--run ID] [--form NAME] [--by rule|field|type|entry]`
struct ReportCommand: Command {
    static let run = Option("run", "ID", of: RunID.self, help: "The run to report (default: the newest).")
    static let form = Option("form", "NAME", help: "Only this form (and, without --run, its newest run).",
                             completion: .registry(.forms))
    static let by = Option("by", "KEY", of: ReportGrouping.self,
                           help: "Group failures by rule, field, type or entry (default rule).")
    static let output = Option("output", "PATH", of: OutputPath.self, help: "Write the report to this file.", completion: .files)
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
        with '). --format html makes one self-contained page, with bar charts of failures
        by rule and by field and the failing share of the recent runs. Every format goes to
        standard output, or to the file --output names; an HTML page is not shown on a
        terminal, though: there it goes to formulary-report-run-ID.html in the current
        folder, and the command prints where it went. A terminal also shows a progress line
        on standard error while the database counts a large run. Reports are counted
        and sorted by the database and written as they come, so memory stays flat however
        many entries fail. Values of secure fields never appear: a value, or an entry key,
        that is one is shown as •••.
        """,
        options: [run, form, by, output],
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
        runID = try arguments.value(Self.run)?.value
        form = arguments[Self.form]
        grouping = try arguments.value(Self.by) ?? .rule
        output = try arguments.value(Self.output)?.path
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
        // A page of HTML is of no use on a terminal: there it goes to a file of its own.
        // Redirected (`report --format html > page.html`), it is the output like any format.
        let htmlDefault = format == .html && output == nil && context.stdout.isTerminal
        let progress = ReportProgressLine(line: context.progress)
        guard let path = try output ?? (htmlDefault ? ReportFile.defaultHTMLName(run: service.runID(run: runID, form: form)) : nil) else {
            let stdout = context.stdout
            // On a terminal the report itself shows how far it has got; elsewhere the line does.
            let counting = !stdout.isTerminal
            try service.render(run: runID, form: form, by: grouping, format: rendering,
                               to: ReportSink { bytes in
                                   if counting { progress.wrote(bytes.count) }
                                   // Out now, not when 64 KiB more are buffered: the sink hands on
                                   // what is written before each slow pass over the failures.
                                   stdout.write(bytes: bytes)
                                   stdout.flush()
                               }, progress: progress.stage)
            return .success
        }
        let id = try service.save(run: runID, form: form, by: grouping, format: rendering, to: path, chosen: output != nil,
                                  progress: progress.stage)
        context.stdout.line("Report of run \(id) written to \(path.forTerminal)")
        return .success
    }
}

/// The progress line of `report`: which pass over the failures the database is making (the
/// silent seconds of a large run), then how much of the report is written.
final class ReportProgressLine {
    private let line: ProgressLine
    private var run: Int64 = 0
    private var written = 0
    private var shownMegabytes = 0

    init(line: ProgressLine) { self.line = line }

    /// Shows `stage`; nil when the line is not drawn, so that nothing is formatted for it.
    var stage: ((ReportProgress) -> Void)? {
        guard line.isEnabled else { return nil }
        return { [self] stage in
            line.show(text(stage))
        }
    }

    func text(_ stage: ReportProgress) -> String {
        switch stage {
        case let .comparing(run, form, previous):
            self.run = run
            return "report of run \(run): comparing form \(form) with "
                + (previous.map { "run \($0)" } ?? "no earlier run") + "…"
        case .countingValues(let run):
            self.run = run
            return "report of run \(run): counting the most frequent failing values…"
        case .writing(let run):
            self.run = run
            return "report of run \(run): grouping and writing the failures…"
        }
    }

    /// Counts `bytes` more written, redrawn once per megabyte.
    func wrote(_ bytes: Int) {
        guard line.isEnabled else { return }
        written += bytes
        let megabytes = written >> 20
        guard megabytes > shownMegabytes else { return }
        shownMegabytes = megabytes
        line.show("report of run \(run): \(ReportNumbers.grouped(megabytes)) MB written…")
    }
}
