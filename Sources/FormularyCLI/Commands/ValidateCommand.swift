import Foundation
import FormularyKit

/// `formulary validate [--form NAME…]`
struct ValidateCommand: Command {
    static let spec = CommandSpec(
        path: ["validate"],
        abstract: "Batch-validates stored entries and records a validation run and its results.",
        discussion: """
        Judges every stored entry of the named forms (of every form with entries when none is
        named) with the form's fields, their types and parameters, 'required', the cross-field
        rules ('same', 'require … when'), and reports undeclared columns as unknown-field
        warnings. The run is recorded: when, by whom, the "today" used, the exact form and
        type versions (by hash), the counts, and every failed rule of every failing entry.
        Passing entries cost no row: their verdict is derived.

        Results commit in batches. A run that is interrupted keeps the batches it committed
        and is marked incomplete; earlier runs are never touched. See the results with
        'formulary report', an entry's verdicts with 'formulary history ID'.

        Exit status: 0 when no entry has an error (warnings do not count), 1 when some entry
        is invalid, 2 when a form cannot be used, 3 on a database failure.
        """,
        options: [.option("form", "NAME", help: "A form to validate; repeatable (default: every form with entries).",
                          repeatable: true)],
        examples: ["formulary validate", "formulary validate --form signup --today 2026-11-29", "formulary --format json validate"])

    let forms: [String]?
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        let named = arguments.all("form")
        forms = named.isEmpty ? nil : named
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let progress = context.progress
        let outcome = try ValidationService(workspace: context.workspace).run(
            forms: forms, today: try context.today(),
            progress: progress.isEnabled ? { p in
                progress.show("validated \(CountText.grouped(p.entriesChecked)) entries (\(Int(p.fraction * 100))%)…")
            } : nil)
        let (run, seconds) = (outcome.run, outcome.seconds)

        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
        } else {
            let style = context.style
            let rate = seconds > 0 ? Int(Double(run.counts.entriesChecked) / seconds) : 0
            context.stdout.line("Run \(run.id) \(run.status.rawValue): \(run.counts.entriesChecked) entries in "
                + String(format: "%.2f", seconds) + " s (\(rate) entries/s), today \(run.today).")
            var rows: [[TextTable.Cell]] = []
            for f in run.forms {
                let c = f.counts
                var row = [f.form, String(c.entriesChecked), String(c.entriesValid), String(c.entriesInvalid),
                           String(c.entriesWarned), String(c.errors), String(c.warnings)].map { TextTable.Cell($0) }
                if c.entriesInvalid > 0 { row[3].paint = style.red }
                rows.append(row)
            }
            context.stdout.write(TextTable(header: ["FORM", "ENTRIES", "VALID", "INVALID", "WARNED", "ERRORS", "WARNINGS"],
                                           cells: rows).render())
            if run.counts.entriesInvalid + run.counts.entriesWarned > 0 {
                context.stdout.line("See 'formulary report --run \(run.id)' for the failures.")
            }
        }
        return run.counts.errors > 0 ? .violations : .success
    }
}
