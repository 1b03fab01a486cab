import Foundation
import FormularyKit

/// `formulary validate [--form NAME…] [--all] [--max-failing PCT]`, `formulary validate --join RUN`
struct ValidateCommand: Command {
    static let form = Option("form", "NAME", help: "A form to validate; repeatable (default: every form with entries).",
                             repeatable: true, completion: .registry(.forms))
    static let all = Flag("all", help: "Judges every entry, carrying no result forward.")
    static let maxFailing = Option("max-failing", "PCT", of: FailureThreshold.self,
                                   help: "Exit 1 only when more than PCT % of the entries are invalid (0 to 100, e.g. 2.5).")
    static let join = Option("join", "RUN", of: RunID.self,
                             help: "Takes part in run RUN, running on this PostgreSQL database: claims its chunks until none is left.")
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

        On PostgreSQL a run is shared: its entries left to judge are split into chunks by id
        (of FORMULARY_CHUNK_SIZE ids, default 50000), the run's id is printed on standard
        error at once, and 'formulary validate --join RUN' on other processes or machines
        claims chunks of it until none is left, judging with the run's form and type
        versions and its today (never their own plugin folders). A claim lasts
        FORMULARY_CHUNK_LEASE seconds (default 60) and is renewed while the chunk is judged;
        a process that dies leaves its chunk to another after that. Forms with 'unique'
        rules are judged by the starting process alone. The starting process waits for the
        others' chunks, ends the run once every chunk is done and prints the summary; it
        must stay until then (if it dies, the run is incomplete, as any interrupted run). A
        joining process prints the chunks and entries it judged and exits 0. The defaults
        of the two variables suit most runs; see docs/scale-out.md, "Running N validators".

        Exit status: 0 when no entry has an error (warnings do not count), 1 when some entry
        is invalid, 2 when a form cannot be used or --max-failing is no percentage, 3 on a
        database failure. With --max-failing PCT, 1 only when more than PCT % of the entries
        checked (carried forward ones included) are invalid. With --join: 0 when this process
        did its part, 2 when the run cannot be joined (unknown, not running, its starter
        gone, or an SQLite database: --join needs a PostgreSQL store), 3 on a database
        failure.
        """,
        options: [form, all, maxFailing, join],
        examples: ["formulary validate", "formulary validate --form signup --today 2026-11-29",
                   "formulary validate --max-failing 2.5", "formulary validate --all", "formulary --format json validate",
                   "formulary --db postgres://ann@db.example.com/formulary validate --join 42"])

    let forms: [String]?
    let all: Bool
    let maxFailing: FailureThreshold?
    let join: Int64?
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        let named = arguments.all(Self.form)
        forms = named.isEmpty ? nil : named
        all = arguments[Self.all]
        maxFailing = try arguments.value(Self.maxFailing)
        join = try arguments.value(Self.join)?.value
        if join != nil {
            // The run decides what is judged, and how; the starter decides the exit status.
            let conflicting = [forms != nil ? "--form" : nil, all ? "--all" : nil, maxFailing != nil ? "--max-failing" : nil]
                .compactMap { $0 }
            if let first = conflicting.first {
                throw UsageError(message: "\(first) cannot be used with --join: the run being joined decides what is judged",
                                 helpCommand: "validate")
            }
        }
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        if let join { return try runJoined(join) }
        let progress = context.progress
        let (chunkSize, lease) = sharing
        let stderr = context.stderr
        let outcome = try ValidationService(workspace: context.workspace).run(
            forms: forms, today: try context.today(), all: all, maxFailing: maxFailing,
            chunkSize: chunkSize, leaseSeconds: lease,
            shared: { id in
                stderr.line("Run \(id) started; other processes can help with 'formulary validate --join \(id)'.")
                stderr.flush()
            },
            progress: progress.isEnabled ? { p in
                progress.show("validated \(ReportNumbers.grouped(p.entriesChecked)) entries (\(Int(p.fraction * 100))%)…")
            } : nil)
        let (run, seconds) = (outcome.run, outcome.seconds)

        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
        } else {
            let style = context.style
            let n = ReportNumbers.grouped
            let rate = seconds > 0 ? Int(Double(run.entriesJudged) / seconds) : 0
            var pace = "\(n(rate)) entries/s"
            if run.entriesCarried > 0 {
                let from = outcome.carriedFrom.map(String.init).joined(separator: ", ")
                pace = "\(n(run.entriesJudged)) judged" + (run.entriesJudged > 0 ? " at \(pace)" : "")
                    + ", \(n(run.entriesCarried)) carried forward from run"
                    + (outcome.carriedFrom.count == 1 ? " " : "s ") + from
            }
            // The locale only when there is one: the line is the same as ever in the types' own texts.
            context.stdout.line("Run \(run.id) \(run.status.rawValue): \(n(run.counts.entriesChecked)) entries in "
                + String(format: "%.2f", seconds) + " s (\(pace)), today \(run.today)"
                + (run.locale.map { ", messages in \($0)" } ?? "") + ".")
            var rows: [[TextTable.Cell]] = []
            for f in run.forms {
                let c = f.counts
                var row = [f.form, n(c.entriesChecked), n(c.entriesValid), n(c.entriesInvalid),
                           n(c.entriesWarned), n(c.errors), n(c.warnings)].map { TextTable.Cell($0) }
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
                context.stdout.line("\(ReportNumbers.grouped(c.entriesInvalid)) of \(ReportNumbers.grouped(c.entriesChecked)) entries invalid ("
                    + String(format: "%.2f", share) + " %): "
                    + (outcome.failed ? "more than" : "within") + " --max-failing \(maxFailing) %.")
            }
        }
        return outcome.failed ? .violations : .success
    }

    /// The chunk size and lease of a shared run: FORMULARY_CHUNK_SIZE (entry ids) and
    /// FORMULARY_CHUNK_LEASE (seconds), tuning settings rather than test hooks (a test makes
    /// small runs shared with them, a user may too); anything but a positive number is ignored.
    var sharing: (chunkSize: Int, leaseSeconds: Double) {
        let size = context.environment["FORMULARY_CHUNK_SIZE"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        let lease = context.environment["FORMULARY_CHUNK_LEASE"].flatMap { Double($0) }
            .flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        return (size ?? ValidationOptions.defaultChunkSize, lease ?? ValidationOptions.defaultLeaseSeconds)
    }

    /// `validate --join RUN`: this process's part, then what it did.
    func runJoined(_ runID: Int64) throws -> ExitStatus {
        let progress = context.progress
        let outcome = try ValidationService(workspace: context.workspace).join(
            runID: runID, progress: progress.isEnabled ? { entries in
                progress.show("judged \(ReportNumbers.grouped(entries)) entries of run \(runID)…")
            } : nil)
        progress.clear()
        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
        } else {
            let done = outcome.done
            var line = "Joined run \(runID): \(ReportNumbers.grouped(done.chunks)) chunk\(done.chunks == 1 ? "" : "s"), "
                + "\(ReportNumbers.grouped(done.entries)) entries checked in " + String(format: "%.2f", outcome.seconds) + " s"
            if done.lost > 0 { line += "; \(ReportNumbers.grouped(done.lost)) chunk\(done.lost == 1 ? "" : "s") taken over by others after their lease" }
            line += outcome.status == .running
                ? ". The run goes on; the process that started it ends it and prints the summary."
                : ". The run is \(outcome.status.rawValue); 'formulary report --run \(runID)' shows its failures."
            context.stdout.line(line)
        }
        return .success
    }
}
