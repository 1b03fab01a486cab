import FormularyKit

/// `formulary impact FILE…`
struct ImpactCommand: Command {
    static let file = Argument("FILE", help: "A .field or .form file declaring one type or form.", isRepeating: true,
                               completion: .files)
    static let spec = CommandSpec(
        path: ["impact"],
        abstract: "Shows what proposed types or forms would change among the stored entries, writing nothing.",
        discussion: """
        Each file must declare one field type or one form. The files are checked as 'types add'
        and 'forms add' check them (lint, accept/reject examples), then every stored entry of
        the forms they change is judged as if they had been added, and compared with its
        latest result: entries newly failing (valid before, invalid now), fixed (invalid
        before, valid now) and unchanged; per field and rule, how many entries newly fail it
        and how many no longer do; and a few entries of each as examples (ids only: no value
        is ever shown).

        An entry's latest result is what the newest validation run that judged it recorded.
        An entry no run has judged yet is judged with the definitions as they are too, and
        compared with that. 'unique' rules are not judged again; their latest results stand.
        Date checks use today (--today), which may differ from the run's.

        The database is only read: nothing is recorded, not even in the audit log.

        Exit status: 0 when the comparison was made (whatever it found), 2 when a file has
        problems or a form cannot be used with the files, 3 on a database failure.
        """,
        arguments: [file],
        examples: ["formulary impact my-types/phone.field", "formulary --format json impact signup.form"])

    let files: [String]
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        files = arguments.values(Self.file)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let stderr = context.stderr
        let report = try ImpactService(workspace: context.workspace)
            .impact(files: files, today: try context.today()) { stderr.write(CommandContext.render($0)) }
        if format == .json {
            context.stdout.write(bytes: report.jsonDocument)
            return .success
        }
        let out = context.stdout
        guard !report.forms.isEmpty else {
            out.line("No stored entries belong to a form that the proposed files change; nothing to compare.")
            return .success
        }
        let style = context.style
        let forms = report.forms.map { "'\($0)'" }.joined(separator: ", ")
        out.line("Judged \(ReportNumbers.grouped(report.entriesChecked)) entries of form\(report.forms.count == 1 ? "" : "s") \(forms.forTerminal) "
                 + "with the proposed definitions, against each entry's latest result:")
        var newly = TextTable.Cell(ReportNumbers.grouped(report.newlyFailing))
        if report.newlyFailing > 0 { newly.paint = style.red }
        var fixed = TextTable.Cell(ReportNumbers.grouped(report.fixed))
        if report.fixed > 0 { fixed.paint = style.green }
        let rows: [[TextTable.Cell]] = [
            [TextTable.Cell("  newly failing"), newly],
            [TextTable.Cell("  fixed"), fixed],
            [TextTable.Cell("  unchanged"), TextTable.Cell(ReportNumbers.grouped(report.unchanged))],
        ]
        out.write(TextTable(cells: rows).render())
        if report.withoutResult > 0 {
            out.line("\(ReportNumbers.grouped(report.withoutResult)) of them had no recorded result and were compared with the current definitions.")
        }
        guard !report.rules.isEmpty else {
            out.line("No rule changes its result.")
            return .success
        }
        out.line()
        out.write(TextTable(header: ["FIELD", "RULE", "NEWLY FAILING", "FIXED"],
                            rows: report.rules.map { [$0.field ?? "-", $0.rule, ReportNumbers.grouped($0.newlyFailing),
                                                      ReportNumbers.grouped($0.fixed)] }).render())
        out.line()
        out.line("Examples (entry ids; see 'formulary entries show ID'):")
        out.write(TextTable(header: ["ENTRY", "FIELD", "RULE", "CHANGE"],
                            rows: report.examples.map { [String($0.entry), $0.field ?? "-", $0.rule,
                                                         $0.change == .fixed ? "fixed" : "newly failing"] }).render())
        return .success
    }
}
