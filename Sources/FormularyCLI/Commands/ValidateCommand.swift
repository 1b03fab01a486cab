import Foundation
import FormularyKit

/// `formulary validate [--form NAME…] [--all] [--max-failing PCT]`
struct ValidateCommand: Command {
    static let spec = CommandSpec(
        path: ["validate"],
        abstract: "Batch-validates stored entries and records a validation run and its results.",
        discussion: """
        Checks every stored entry of the named forms (of every form with entries when none is
        named) with the form's fields, their types and parameters, 'required', the cross-field
        rules ('same', 'require … when'), and reports undeclared columns as unknown-field
        warnings. The run is recorded: when, by whom, the "today" used, the exact form and
        type versions (by hash), the counts, and every failed rule of every failing entry.
        Passing entries cost no row: their verdict is derived.

        A run judges only what changed since each form's last complete run: entries added or
        changed by an import since. The other entries keep that run's results, copied into
        the new run (carried forward), so that reports, 'history' and 'audit verify' read as
        after a full run. A form is judged in full when its version or a field's type version
        changed, when it has 'unique' rules (a new duplicate makes an old entry fail too), when
        'today' changed and the form or a type measures dates from it, or when there is no
        complete run to start from. --all judges every entry.

        Results commit in batches. A run that is interrupted keeps the batches it committed
        and is marked incomplete; earlier runs are never touched. See the results with
        'formulary report', an entry's verdicts with 'formulary history ID'.

        Exit status: 0 when no entry has an error (warnings do not count), 1 when some entry
        is invalid, 2 when a form cannot be used or --max-failing is no percentage, 3 on a
        database failure. With --max-failing PCT, 1 only when more than PCT % of the entries
        checked (carried forward ones included) are invalid.
        """,
        options: [.option("form", "NAME", help: "A form to validate; repeatable (default: every form with entries).",
                          repeatable: true),
                  .flag("all", help: "Judges every entry, carrying no result forward."),
                  .option("max-failing", "PCT", of: FailureThreshold.self,
                          help: "Exit 1 only when more than PCT % of the entries are invalid (0 to 100, e.g. 2.5).")],
        examples: ["formulary validate", "formulary validate --form signup --today 2026-11-29",
                   "formulary validate --max-failing 2.5", "formulary validate --all", "formulary --format json validate"])

    let forms: [String]?
    let all: Bool
    let maxFailing: FailureThreshold?
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        let named = arguments.all("form")
        forms = named.isEmpty ? nil : named
        all = arguments.flag("all")
        maxFailing = try arguments.value("max-failing", as: FailureThreshold.self)
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let progress = context.progress
        let outcome = try ValidationService(workspace: context.workspace).run(
            forms: forms, today: try context.today(), all: all, maxFailing: maxFailing,
            progress: progress.isEnabled ? { p in
                progress.show("validated \(CountText.grouped(p.entriesChecked)) entries (\(Int(p.fraction * 100))%)…")
            } : nil)
        let (run, seconds) = (outcome.run, outcome.seconds)

        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
        } else {
            let style = context.style
            let rate = seconds > 0 ? Int(Double(run.entriesJudged) / seconds) : 0
            var pace = "\(rate) entries/s"
            if run.entriesCarried > 0 {
                let from = outcome.carriedFrom.map(String.init).joined(separator: ", ")
                pace = "\(run.entriesJudged) judged" + (run.entriesJudged > 0 ? " at \(pace)" : "")
                    + ", \(run.entriesCarried) carried forward from run"
                    + (outcome.carriedFrom.count == 1 ? " " : "s ") + from
            }
            context.stdout.line("Run \(run.id) \(run.status.rawValue): \(run.counts.entriesChecked) entries in "
                + String(format: "%.2f", seconds) + " s (\(pace)), today \(run.today).")
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
            if let maxFailing {
                let c = run.counts
                let share = c.entriesChecked > 0 ? Double(c.entriesInvalid) / Double(c.entriesChecked) * 100 : 0
                context.stdout.line("\(CountText.grouped(c.entriesInvalid)) of \(CountText.grouped(c.entriesChecked)) entries invalid ("
                    + String(format: "%.2f", share) + " %): "
                    + (outcome.failed ? "more than" : "within") + " --max-failing \(maxFailing) %.")
            }
        }
        return outcome.failed ? .violations : .success
    }
}
