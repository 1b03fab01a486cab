import FormularyJSON
import FormularyKit
import FormularyStore

/// `formulary history ENTRY`
struct HistoryCommand: Command {
    static let spec = CommandSpec(
        path: ["history"],
        abstract: "Shows every validation run that judged an entry: verdict, failed rules, type versions.",
        discussion: """
        Lists, oldest first, each run that judged the entry: when it started, its status, the
        entry version it judged (keyed imports replace an entry's values; earlier versions are
        marked 'replaced'), the verdict (valid, warnings or invalid), every failed rule, and
        the version (hash) of the type that judged each field. A passing entry's verdict is
        derived from the run's progress, so it costs no storage. Secure values never appear.
        """,
        arguments: [ArgumentSpec(name: "ENTRY", help: "The entry's id, as 'entries list' shows it.")],
        examples: ["formulary history 42", "formulary --format json history 42"])

    let id: Int64
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        id = try arguments.positional("ENTRY", as: EntryID.self).value
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore()
        let (entry, history) = try store.read { () throws -> (StoredEntry?, [EntryRunVerdict]) in
            guard let entry = try store.entry(id: id) else { return (nil, []) }
            return (entry, try store.runHistory(entryID: id))
        }
        guard let entry else { throw StoreError.noSuchEntry(id) }
        let key = try SecureKeys(context: context, store: store).shownKey(of: entry)
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("entry", Int(entry.id))
                o.field("form", entry.form)
                o.fieldIfPresent("key", key)
                o.field("current_version", entry.version)
                o.array("runs") { a in
                    for h in history {
                        a.object { ro in
                            ro.field("run", Int(h.run.id))
                            ro.field("started_at", h.run.startedAt)
                            ro.field("status", h.run.status.rawValue)
                            ro.field("today", h.run.today)
                            ro.field("entry_version", h.entryVersion)
                            ro.field("is_current_version", h.isCurrentVersion)
                            ro.field("verdict", h.verdict.rawValue)
                            ro.array("failures") { fa in
                                for r in h.results {
                                    fa.object { fo in
                                        if let f = r.rule.field { fo.field("field", f) } else { fo.nullField("field") }
                                        fo.field("rule", r.rule.rule)
                                        fo.field("severity", r.rule.severity.rawValue)
                                        fo.field("message", r.rule.message)
                                    }
                                }
                            }
                            ro.array("types") { ta in
                                for t in h.types {
                                    ta.object { to in
                                        to.field("field", t.field)
                                        to.field("type", t.version.name)
                                        to.field("version", t.version.hash)
                                        to.field("origin", t.version.origin)
                                    }
                                }
                            }
                        }
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
            return .success
        }

        let style = context.style
        var title = "Entry \(entry.id) of form \(entry.form.forTerminal)"
        if let key { title += ", key \(ReportEscaping.terminal(key))" }
        context.stdout.line(title + ", version \(entry.version)")
        guard !history.isEmpty else {
            context.stdout.line("No validation run has judged it yet; run 'formulary validate'.")
            return .success
        }
        for h in history {
            let verdict = switch h.verdict {
            case .valid: style.green("valid")
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
