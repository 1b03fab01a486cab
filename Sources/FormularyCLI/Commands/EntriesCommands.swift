import FormularyKit
import FormularyJSON
import FormularyRules

/// `formulary entries list [--form NAME] [--failing] [--limit N]`
struct EntriesListCommand: Command {
    static let form = Option("form", "NAME", help: "Only entries of this form.", completion: .registry(.forms))
    static let failing = Flag("failing", help: "Only entries that failed their latest validation.")
    static let limit = Option("limit", "N", of: Count.self, help: "At most N entries (default 1000; 0 for all).",
                              expecting: "use a whole number, 0 for all")
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
        options: [form, failing, limit],
        examples: ["formulary entries list --form signup", "formulary entries list --failing"])

    let form: String?
    let failing: Bool
    let limit: Int
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        form = arguments[Self.form]
        failing = arguments[Self.failing]
        limit = try arguments.value(Self.limit)?.value ?? 1000
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        if failing { return try runFailing() }
        let listing = try EntriesService(workspace: context.workspace).list(form: form, failing: failing, limit: limit)
        if format == .json {
            context.stdout.write(bytes: listing.jsonDocument)
        } else {
            let rows = listing.rows.map { row in
                [String(row.entry.id), row.entry.form, row.key.map(ReportEscaping.terminal) ?? "", row.entry.createdAt,
                 row.entry.updatedAt, row.verdict?.summary ?? "not validated"]
            }
            context.stdout.write(TextTable(header: ["ID", "FORM", "KEY", "ADDED", "CHANGED", "LATEST VERDICT"], rows: rows).render())
        }
        let shown = listing.rows.count
        if let total = listing.total {
            // On standard error, in both formats: standard output keeps its shape (a table,
            // a JSON array) for whatever reads it.
            let what = (failing ? "failing entries" : "entries") + (form.map { " of form \($0.forTerminal)" } ?? "")
            context.stderr.line("\(ReportNumbers.grouped(shown)) of \(ReportNumbers.grouped(total)) \(what) shown; "
                                + "use --limit N to see more, --limit 0 for all.")
        }
        return .success
    }
}

extension EntriesListCommand {
    /// `--failing` streams: rows are printed as the database hands them over; the table's
    /// column widths come from the first 1,000 rows (a later, wider cell widens its column
    /// from there on), so memory stays flat however many entries fail.
    func runFailing() throws -> ExitStatus {
        let header = ["ID", "FORM", "KEY", "ADDED", "CHANGED", "LATEST VERDICT"]
        var pending: [[String]] = []
        var widths: [Int]?
        var shown = 0
        var first = true
        let stdout = context.stdout
        func cells(_ row: EntriesService.EntryRow) -> [String] {
            [String(row.entry.id), row.entry.form, row.key.map(ReportEscaping.terminal) ?? "", row.entry.createdAt,
             row.entry.updatedAt, row.verdict?.summary ?? "not validated"]
        }
        func line(_ cells: [String], _ widths: [Int]) -> String {
            var out = ""
            for (i, cell) in cells.enumerated() {
                out += cell
                if i < cells.count - 1 { out += String(repeating: " ", count: max(widths[i] - cell.count, 0) + 2) }
            }
            while out.hasSuffix(" ") { out.removeLast() }
            return out
        }
        func emit(_ row: [String]) {
            guard var w = widths else { return }
            for (i, cell) in row.enumerated() { w[i] = max(w[i], cell.count) }
            widths = w
            stdout.line(line(row, w))
        }
        func startTable() {
            var w = header.map(\.count)
            for row in pending { for (i, cell) in row.enumerated() { w[i] = max(w[i], cell.count) } }
            widths = w
            stdout.line(line(header, w))
            for row in pending { stdout.line(line(row, w)) }
            pending = []
        }
        var total = 0
        if format == .json { stdout.write("[") }
        try EntriesService(workspace: context.workspace).forEachFailing(form: form, limit: limit) { row in
            shown += 1
            if format == .json {
                if !first { stdout.write(",") }
                first = false
                var w = JSONWriter()
                row.writeJSON(to: &w)
                stdout.write(bytes: w.bytes)
            } else if widths == nil {
                pending.append(cells(row))
                if pending.count == 1000 { startTable() }
            } else {
                emit(cells(row))
            }
        } total: { total = $0 }
        if format == .json { stdout.line("]") } else if widths == nil { startTable() }
        if limit > 0 && total > limit {
            let what = "failing entries" + (form.map { " of form \($0.forTerminal)" } ?? "")
            context.stderr.line("\(ReportNumbers.grouped(shown)) of \(ReportNumbers.grouped(total)) \(what) shown; "
                                + "use --limit N to see more, --limit 0 for all.")
        }
        return .success
    }
}

/// `formulary entries show ID`
struct EntriesShowCommand: Command {
    static let id = Argument("ID", of: EntryID.self, help: "The entry's id, as 'entries list' shows it.")
    static let spec = CommandSpec(
        path: ["entries", "show"],
        abstract: "Shows one entry: its values, key, when added and changed, latest verdict.",
        discussion: "Values of fields whose type is secure are shown as •••.",
        arguments: [id],
        examples: ["formulary entries show 42"])

    let id: Int64
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        id = try arguments.value(Self.id).value
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let detail = try EntriesService(workspace: context.workspace).show(id: id)
        if format == .json {
            context.stdout.write(bytes: detail.jsonDocument)
            return .success
        }
        let (entry, key, verdict, values) = (detail.entry, detail.key, detail.verdict, detail.values)
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
