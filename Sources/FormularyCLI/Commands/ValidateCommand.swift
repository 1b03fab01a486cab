import Foundation
import FormularyJSON
import FormularyKit
import FormularyRules
import FormularyStore

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
        let store = try context.openStore(.write)
        let registry = try context.loadRegistry(store: store)
        let options = ValidationOptions(forms: forms, today: try context.today(), actor: context.actor)
        let validation = ValidationRun(store: store, registry: registry, options: options)
        let progress = context.progress
        if progress.isEnabled {
            validation.progress = { p in
                progress.show("validated \(CountText.grouped(p.entriesChecked)) entries (\(Int(p.fraction * 100))%)…")
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        let run: RunRecord
        do {
            run = try validation.run()
        } catch let error as ValidationSetupError {
            throw CommandFailure(status: .badInput, message: error.description + "; nothing was validated",
                                 details: context.render(error.diagnostics))
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18

        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("run", Int(run.id))
                o.field("status", run.status.rawValue)
                o.field("started_at", run.startedAt)
                if let end = run.endedAt { o.field("ended_at", end) } else { o.nullField("ended_at") }
                o.field("actor", run.actor)
                o.field("today", run.today)
                Self.write(run.counts, into: &o)
                o.array("forms") { a in
                    for f in run.forms {
                        a.object { fo in
                            fo.field("form", f.form)
                            fo.field("form_version", f.formVersionHash)
                            Self.write(f.counts, into: &fo)
                        }
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
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

    static func write(_ counts: RunCounts, into o: inout JSONObjectWriter) {
        o.field("entries_checked", counts.entriesChecked)
        o.field("entries_valid", counts.entriesValid)
        o.field("entries_invalid", counts.entriesInvalid)
        o.field("entries_warned", counts.entriesWarned)
        o.field("errors", counts.errors)
        o.field("warnings", counts.warnings)
    }
}
