import FormularyKit

/// `formulary canonicalize --form NAME [--dry-run]`
struct CanonicalizeCommand: Command {
    static let form = Option("form", "NAME", help: "The form whose entries to rewrite.", required: true,
                             completion: .registry(.forms))
    static let dryRun = Flag("dry-run", help: "Counts what would be rewritten; writes nothing.")
    static let spec = CommandSpec(
        path: ["canonicalize"],
        abstract: "Rewrites a form's valid stored values into their canonical form, as new entry versions (audited).",
        discussion: """
        Judges each stored value of the form's fields with the field's type. A value that is
        valid (warnings allowed) but not written the way its type normalizes and formats it
        ('formulary format' shows that form) is rewritten; the entry gets a new version,
        its earlier values stay in its history. Invalid values are never touched, nor a value
        that is the entry's key (keyed imports find the entry by it as imported). Everything
        is written in one transaction with one audit record (action 'canonicalize', counts
        only); 'history ID' shows the new version, the next 'validate' judges it.

        With --dry-run, counts what would be rewritten and writes nothing. Values are never
        printed, so secure values are safe; only counts per field are.

        Exit status: 0 on success, 2 when the form is unknown or cannot be used, 3 on a
        database failure.
        """,
        options: [form, dryRun],
        examples: ["formulary canonicalize --form signup --dry-run", "formulary canonicalize --form signup",
                   "formulary --format json canonicalize --form signup"])

    let form: String
    let dryRun: Bool
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        form = try arguments.required(Self.form)
        dryRun = arguments[Self.dryRun]
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let outcome = try CanonicalizeService(workspace: context.workspace)
            .canonicalize(form: form, dryRun: dryRun, today: try context.today())
        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
            return .success
        }
        let out = context.stdout
        let n = outcome.entriesRewritten
        let entries = "\(ReportNumbers.grouped(n)) entr\(n == 1 ? "y" : "ies")"
        let checked = "of \(ReportNumbers.grouped(outcome.entriesChecked)) in form '\(outcome.form)'"
        if outcome.dryRun {
            out.line("Dry run: \(entries) \(checked) would get a new version; nothing was written.".forTerminal)
        } else if n == 0 {
            out.line("Nothing to rewrite: every valid value in form '\(outcome.form)' is already canonical.".forTerminal)
        } else {
            out.line("Rewrote \(entries) \(checked) as new versions (audit record \(outcome.auditSeq ?? 0)).".forTerminal)
        }
        out.write(TextTable(header: ["FIELD", "TYPE", outcome.dryRun ? "TO REWRITE" : "REWRITTEN", "CANONICAL", "INVALID", "KEPT"],
                            rows: outcome.fields.map { f in
                                [f.field, f.type, ReportNumbers.grouped(f.rewritten), ReportNumbers.grouped(f.canonical),
                                 ReportNumbers.grouped(f.invalid), ReportNumbers.grouped(f.kept)]
                            }).render())
        return .success
    }
}
