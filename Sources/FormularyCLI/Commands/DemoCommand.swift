import FormularyKit
import FormularyRules

/// `formulary demo`
struct DemoCommand: Command {
    static let spec = CommandSpec(
        path: ["demo"],
        abstract: "Runs the main job end to end on a throw-away database and sample data.",
        discussion: """
        Creates a new SQLite database in a temporary folder (TMPDIR, else /tmp), registers the
        built-in field types and a sample sign-up form, imports 320 bundled sign-ups (about
        one in five with a realistic mistake: a mistyped card digit, an expired card, an
        under-age applicant, emails that differ…), validates them, prints the report and
        writes the HTML report next to the database. Your own database (--db, a file or a
        postgres:// URL) is not touched: the demo always works on its own throw-away file.
        The folder is left in place so that you can explore it with the commands it prints.
        """,
        formats: [.text],
        examples: ["formulary demo", "formulary demo --today 2026-11-29"])

    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let folder = try Demo.makeFolder(in: context.environment["TMPDIR"])
        let out = context.stdout
        let style = context.style
        let n = ReportNumbers.grouped
        out.line(style.bold("Formulary demo") + " — a throw-away database in \(folder.forTerminal)")
        let outcome = try Demo.run(in: folder, today: try context.today(), actor: context.actor) { step in
            switch step {
            case let .registeredTypes(count, selfTests):
                out.line("1. Registered \(n(count)) built-in field types; their \(n(selfTests)) self-tests passed.")
            case let .registeredForm(name, fields):
                out.line("2. Registered the form '\(name.forTerminal)' (\(fields) fields).")
            case let .imported(records, file):
                out.line("3. Imported \(n(records)) sign-ups from the bundled \(file).")
            case .validated(let run):
                let c = run.counts
                out.line("4. Validated them (run \(run.id), today \(run.today)): \(n(c.entriesChecked - c.entriesInvalid - c.entriesWarned)) valid, "
                         + "\(n(c.entriesInvalid)) invalid, \(n(c.entriesWarned)) with warnings only.")
            }
            out.flush()
        }
        out.line()
        out.write(outcome.report.text(by: .rule, colour: style.enabled))
        out.line()
        out.line("HTML report written to \(outcome.htmlReportPath.forTerminal)")
        let db = "--db \(outcome.databasePath.forTerminal)"
        out.line("Explore the demo database:")
        out.line("  formulary \(db) report --by field")
        out.line("  formulary \(db) entries list --failing")
        out.line("  formulary \(db) history ID")
        out.line("  formulary \(db) audit")
        return .success
    }
}
