import FormularyJSON
import FormularyKit
import FormularyRules
import FormularyStore

/// `formulary entries list [--form NAME] [--failing] [--limit N]`
struct EntriesListCommand: Command {
    static let spec = CommandSpec(
        path: ["entries", "list"],
        abstract: "Lists stored entries and their latest verdict.",
        discussion: """
        One line per entry: id, form, key, when it was added and last changed, and the
        verdict of the latest validation run that judged it ('not validated' before the first).
        --failing keeps the entries whose latest verdict is invalid. At most --limit entries
        are listed (1000 unless given; 0 for all); when that cuts the list short, a note on
        standard error says how many there are.
        """,
        options: [
            .option("form", "NAME", help: "Only entries of this form."),
            .flag("failing", help: "Only entries that failed their latest validation."),
            .option("limit", "N", of: Count.self, help: "At most N entries (default 1000; 0 for all)."),
        ],
        examples: ["formulary entries list --form signup", "formulary entries list --failing"])

    let form: String?
    let failing: Bool
    let limit: Int
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        form = arguments.value("form")
        failing = arguments.flag("failing")
        limit = try arguments.value("limit", as: Count.self, expecting: "use a whole number, 0 for all")?.value ?? 1000
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore()
        var rows: [[String]] = []
        var w = JSONWriter()
        let keys = SecureKeys(context: context, store: store)
        func add(_ entry: StoredEntry, _ verdict: EntryRunVerdict?, to a: inout JSONArrayWriter) throws {
            let key = try keys.shownKey(of: entry)
            rows.append([String(entry.id), entry.form, key.map(ReportEscaping.terminal) ?? "", entry.createdAt, entry.updatedAt,
                         verdict?.summary ?? "not validated"])
            a.object { o in
                o.field("id", Int(entry.id))
                o.field("form", entry.form)
                if let k = key { o.field("key", k) } else { o.nullField("key") }
                o.field("created_at", entry.createdAt)
                o.field("updated_at", entry.updatedAt)
                if let v = verdict { o.field("verdict", v.verdict.rawValue) } else { o.nullField("verdict") }
                if let v = verdict { o.field("run", Int(v.run.id)) } else { o.nullField("run") }
            }
        }
        var shown = 0
        var total: Int?   // set when the limit cut the list short
        try w.array { a in
            if failing {
                // The newest run of each form names its failing entries: no need to look at the rest.
                let ids = try store.failingEntryIDs(form: form)
                for id in ids.prefix(limit > 0 ? limit : Int.max) {
                    guard let entry = try store.entry(id: id) else { continue }
                    try add(entry, try store.latestVerdict(entryID: id), to: &a)
                    shown += 1
                }
                if limit > 0 && ids.count > limit { total = ids.count }
                return
            }
            var after: Int64 = 0
            scan: while true {
                let page = try store.entries(form: form, afterID: after, limit: 1000)
                if page.isEmpty { break }
                for entry in page {
                    after = entry.id
                    try add(entry, try store.latestVerdict(entryID: entry.id), to: &a)
                    shown += 1
                    if limit > 0 && shown >= limit { break scan }
                }
            }
            if limit > 0 && shown >= limit {
                let count = try store.entryCount(form: form)
                if count > shown { total = count }
            }
        }
        if format == .json {
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            context.stdout.write(TextTable(header: ["ID", "FORM", "KEY", "ADDED", "CHANGED", "LATEST VERDICT"], rows: rows).render())
        }
        if let total {
            // On standard error, in both formats: standard output keeps its shape (a table,
            // a JSON array) for whatever reads it.
            let what = (failing ? "failing entries" : "entries") + (form.map { " of form \($0.forTerminal)" } ?? "")
            context.stderr.line("\(CountText.grouped(shown)) of \(CountText.grouped(total)) \(what) shown; "
                                + "use --limit N to see more, --limit 0 for all.")
        }
        return .success
    }
}

/// `formulary entries show ID`
struct EntriesShowCommand: Command {
    static let spec = CommandSpec(
        path: ["entries", "show"],
        abstract: "Shows one entry: its values, key, when added and changed, latest verdict.",
        discussion: "Values of fields whose type is secure are shown as •••.",
        arguments: [ArgumentSpec(name: "ID", help: "The entry's id, as 'entries list' shows it.")],
        examples: ["formulary entries show 42"])

    let id: Int64
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        id = try arguments.positional("ID", as: EntryID.self).value
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore()
        guard let entry = try store.entry(id: id) else { throw StoreError.noSuchEntry(id) }
        let secure = try context.secureFields(store: store).of(form: entry.form)
        let key = secure.shownKey(of: entry)
        let verdict = try store.latestVerdict(entryID: id)
        let values = zip(entry.fields, entry.values).map { field, value in (field, secure.shown(value, field: field)) }
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("id", Int(entry.id))
                o.field("form", entry.form)
                if let k = key { o.field("key", k) } else { o.nullField("key") }
                o.field("version", entry.version)
                o.field("created_at", entry.createdAt)
                o.field("updated_at", entry.updatedAt)
                o.object("values") { vo in
                    for (field, value) in values {
                        if let value { vo.field(field, value) } else { vo.nullField(field) }
                    }
                }
                if let v = verdict { o.field("verdict", v.verdict.rawValue) } else { o.nullField("verdict") }
                if let v = verdict { o.field("run", Int(v.run.id)) } else { o.nullField("run") }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
            return .success
        }
        var rows: [[String]] = [["id", String(entry.id)], ["form", entry.form]]
        if let k = key { rows.append(["key", ReportEscaping.terminal(k)]) }
        rows += [["added", entry.createdAt], ["changed", "\(entry.updatedAt) (version \(entry.version))"],
                 ["latest verdict", verdict?.summary ?? "not validated yet"]]
        context.stdout.write(TextTable(rows: rows).render())
        context.stdout.line()
        context.stdout.write(TextTable(header: ["FIELD", "VALUE"], rows: values.map {
            [$0.0, $0.1.map { CheckCommand.quoted($0) } ?? "(absent)"]
        }).render())
        return .success
    }
}

/// Masks the keys of entries of many forms (``SecureFields``), loading the registries only
/// when an entry has a key: most listings have none.
final class SecureKeys {
    private let context: CommandContext
    private let store: Store
    private var secureFields: SecureFields?

    init(context: CommandContext, store: Store) {
        self.context = context
        self.store = store
    }

    func shownKey(of entry: StoredEntry) throws -> String? {
        guard let key = entry.key, !key.isEmpty else { return entry.key }
        if secureFields == nil { secureFields = try context.secureFields(store: store) }
        return try secureFields!.of(form: entry.form).shownKey(of: entry)
    }
}
