import FormularyKit

/// `formulary copy --to DB`
struct CopyCommand: Command {
    static let to = Option("to", "DB", help: "The database to copy into: an SQLite file or a postgres:// URL.",
                           required: true, completion: .files)
    static let spec = CommandSpec(
        path: ["copy"],
        abstract: "Copies the whole registry into an empty database, SQLite or PostgreSQL, audit head and all.",
        discussion: """
        Copies everything the database (--db) holds into DB, an SQLite file or a postgres://
        URL: type and form versions and their events, entries and their earlier versions
        (with their source lines), imports, validation runs and their results, tokens (their
        hashes), the audit log and the key its data digests are made with. Ids stay as they
        are, so 'formulary --db DB audit head' prints what 'audit head' prints here, and
        'audit verify' passes on the copy. Moving from SQLite to PostgreSQL and back is one
        command each way.

        DB must hold no data: a new file, a database 'createdb' made, or one 'formulary init'
        just made (the copy runs 'init' itself when needed). A database that holds anything,
        or the source itself, is refused and nothing is written (exit status 2). The source
        is read as one snapshot and DB is written in one transaction: if anything fails
        (exit status 3), DB is left as it was, and a file the copy created is removed. The
        copy adds no audit record, so that both heads stay equal: note the head it prints
        if you keep heads elsewhere. --format json prints {"source","target","rows","audit_head"}.
        """,
        options: [to],
        examples: ["formulary copy --to postgres://formulary@db.example.com/formulary",
                   "formulary --db postgres://formulary@db.example.com/formulary copy --to backup.db"])

    let target: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        target = arguments[Self.to] ?? ""
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let progress = context.progress
        let outcome = try CopyService(workspace: context.workspace).copy(to: target) { what, count in
            if progress.isEnabled { progress.show("copy: \(ReportNumbers.grouped(count)) \(what) copied") }
        }
        progress.clear()
        if format == .json {
            context.stdout.write(bytes: outcome.jsonDocument)
            return .success
        }
        let rows = outcome.rows.filter { $0.count > 0 }.map { [$0.what, ReportNumbers.grouped($0.count)] }
        context.stdout.line("Copied \(outcome.source) to \(outcome.target):")
        context.stdout.write(TextTable(header: ["RECORDS", "COPIED"], rows: rows).render())
        context.stdout.line("Both now have the audit head \(outcome.auditSeq) \(outcome.auditHash)")
        return .success
    }
}
