import FormularyKit

/// `formulary history ENTRY`
struct HistoryCommand: Command {
    static let entry = Argument("ENTRY", of: EntryID.self, help: "The entry's id, as 'entries list' shows it.")
    static let spec = CommandSpec(
        path: ["history"],
        abstract: "Shows every validation run that judged an entry: verdict, failed rules, type versions.",
        discussion: """
        Lists, oldest first, each run that judged the entry: when it started, its status, the
        entry version it judged (keyed imports replace an entry's values; earlier versions are
        marked 'replaced'), the verdict (valid, warnings or invalid), every failed rule, and
        the version (hash) of the type that judged each field. An entry with more than one
        version first lists who wrote each (an import, or 'canonicalize'). A passing entry's verdict is
        derived from the run's progress, so it costs no storage. Secure values never appear.
        """,
        arguments: [entry],
        examples: ["formulary history 42", "formulary --format json history 42"])

    let id: Int64
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        id = try arguments.value(Self.entry).value
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let result = try HistoryService(workspace: context.workspace).history(entry: id)
        if format == .json {
            context.stdout.write(bytes: result.jsonDocument)
            return .success
        }
        let (entry, key, history) = (result.entry, result.key, result.runs)

        let style = context.style
        var title = "Entry \(entry.id) of form \(entry.form.forTerminal)"
        if let key { title += ", key \(ReportEscaping.terminal(key))" }
        context.stdout.line(title + ", version \(entry.version)")
        // Which import (or `canonicalize`) wrote each version, once there is more than one.
        if result.versions.count > 1 {
            let rows = result.versions.map { v in
                ["  version \(v.version)", v.at, v.actor, v.source == "canonicalize" ? "canonicalize" : "import of \(v.source)"]
            }
            context.stdout.write(TextTable(rows: rows).render())
        }
        guard !history.isEmpty else {
            context.stdout.line("No validation run has judged it yet; run 'formulary validate'.")
            return .success
        }
        for h in history {
            let verdict = switch h.verdict {
            case .valid, .incomplete: style.green("valid")   // runs judge final: never incomplete
            case .warnings: style.yellow("warnings")
            case .invalid: style.red("invalid")
            }
            let version = "entry version \(h.entryVersion)" + (h.isCurrentVersion ? "" : " (since replaced)")
            let status = h.run.status == .complete ? "" : " [\(h.run.status.rawValue)]"
            context.stdout.line()
            context.stdout.line(style.bold("run \(h.run.id)") + "  \(h.run.startedAt)\(status)  today \(h.run.today)  \(version)  \(verdict)")
            if !h.results.isEmpty {
                let rows = h.results.map { r in
                    ["  " + r.rule.severity.rawValue, r.rule.field ?? "-", r.rule.rule, r.rule.message]
                }
                context.stdout.write(TextTable(rows: rows).render())
            }
            let types = h.types.map { "\($0.field) \($0.version.name)@\($0.version.shortHash)".forTerminal }
            context.stdout.line(style.dim("  types: " + types.joined(separator: ", ")))
        }
        return .success
    }
}
