import FormularyKit

/// `formulary import --form NAME FILE|- [--key FIELD]`
struct ImportCommand: Command {
    static let form = Option("form", "NAME", help: "The form the entries belong to (required).", required: true,
                             completion: .registry(.forms))
    static let key = Option("key", "FIELD", help: "A column that identifies an entry; updates instead of duplicating.")
    static let input = Option("input", "FORMAT", of: RecordFormat.self,
                              help: "csv or jsonl, when the file name does not tell.")
    static let skipBad = Flag("skip-bad", help: "Skips malformed lines (listing each) instead of stopping.")
    static let file = Argument("FILE", spelling: "FILE|-",
                               help: "The CSV or JSON Lines file to import; - reads standard input.",
                               completion: .files)
    static let spec = CommandSpec(
        path: ["import"],
        abstract: "Stores entries of a form from a CSV or JSON Lines file (one transaction).",
        discussion: """
        CSV needs a header row (RFC 4180: quoted fields, embedded commas, quotes and line
        breaks, CRLF or LF, a UTF-8 byte-order mark). JSON Lines holds one flat object per
        line: numbers and booleans become their text, null is absent, nested values are an
        error. The format follows the extension (.csv, .jsonl, .ndjson) unless --input says;
        '-' reads standard input (then --input is needed).

        The import is one transaction: a malformed line stops it with file:line and nothing
        is written. --skip-bad skips such lines instead and lists each one. Values are stored
        as they are; 'formulary validate' judges them. A file none of whose columns (keys, in
        JSON Lines) is a field of the form is refused. Columns the form does not declare are
        named in a warning, with the field they are near ("did you mean"), and kept
        (validation reports them as unknown-field); required fields no column holds are
        named in a warning too. With --key FIELD, a record
        whose key an entry already has updates that entry; its previous values stay in its
        history.
        """,
        options: [form, key, input, skipBad],
        arguments: [file],
        examples: ["formulary import --form signup signups.csv", "formulary import --form signup --key email - --input jsonl < more.jsonl"])

    let file: String
    let form: String
    let key: String?
    let input: RecordFormat
    let skipBad: Bool
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        file = try arguments.value(Self.file)
        form = try arguments.required(Self.form)
        key = arguments[Self.key]
        skipBad = arguments[Self.skipBad]
        if file != "-" && FileSystem.isDirectory(file) {
            throw UsageError(message: "\(file) is a folder; import reads one CSV or JSON Lines file: name a file in it",
                             helpCommand: "import")
        }
        if let f = try arguments.value(Self.input) {
            input = f
        } else if let f = RecordFormat(fileName: file) {
            input = f
        } else if file == "-" {
            throw UsageError(message: "standard input has no file name to tell its format by; add --input csv or --input jsonl",
                             helpCommand: "import")
        } else {
            throw UsageError(message: "cannot tell the format of '\(file)' from its name; add --input csv or --input jsonl",
                             helpCommand: "import")
        }
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let progress = context.progress
        let file = self.file
        let outcome = try ImportService(workspace: context.workspace).run(
            file: file, format: input, form: form, key: key, skipBad: skipBad, standardInput: context.stdin,
            progress: progress.isEnabled ? { p in
                progress.show(Self.progressText(file: file, records: p.records, bytesRead: p.bytesRead, size: p.size))
            } : nil)
        let summary = outcome.summary
        for bad in summary.skipped {
            context.stderr.line("formulary: warning: \(ReportEscaping.terminal(bad.description)); line skipped")
        }
        let warning = "formulary: \(context.errorStyle.yellow("warning")): \(file.forTerminal): "
        for column in summary.unknownColumns {
            context.stderr.line(warning + "\(input == .csv ? "column" : "key") '\(column.name.forTerminal)' is not a field of form \(form.forTerminal)"
                                + (column.suggestion.map { "; did you mean '\($0.forTerminal)'?" } ?? "")
                                + " (stored as it is; 'validate' reports it as unknown-field)")
        }
        if !summary.missingRequired.isEmpty {
            let names = summary.missingRequired.map { "'\($0.forTerminal)'" }.joined(separator: ", ")
            let one = summary.missingRequired.count == 1
            context.stderr.line(warning + "no \(input == .csv ? "column" : "key") holds the required field\(one ? "" : "s") \(names) of form \(form.forTerminal); "
                                + "'validate' will find \(one ? "it" : "them") missing in every entry")
        }
        if context.arguments[GlobalOption.format] == "json" {
            context.stdout.write(bytes: outcome.jsonDocument)
        } else {
            let n = ReportNumbers.grouped
            var parts = ["\(n(summary.added)) added"]
            if key != nil { parts += ["\(n(summary.updated)) updated", "\(n(summary.unchanged)) unchanged"] }
            if skipBad { parts.append("\(n(summary.skipped.count)) skipped") }
            context.stdout.line("Imported \(n(summary.records)) record\(summary.records == 1 ? "" : "s") into "
                                + "\(ReportEscaping.terminal(form)): \(parts.joined(separator: ", ")).")
        }
        return .success
    }

    /// `importing FILE: 42% (120,000 records)…`, or without the percentage when the size is
    /// unknown. A long file name is cut from the left, so that the line fits a terminal.
    static func progressText(file: String, records: Int, bytesRead: Int64, size: Int64?) -> String {
        let name = file.count > 32 ? "…" + file.suffix(31) : file
        let count = "\(ReportNumbers.grouped(records)) record\(records == 1 ? "" : "s")"
        guard let size, size > 0 else { return "importing \(name): \(count)…" }
        let percent = min(100, bytesRead * 100 / size)
        return "importing \(name): \(percent)% (\(count))…"
    }
}
