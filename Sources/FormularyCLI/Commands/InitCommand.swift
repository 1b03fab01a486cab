import FormularyKit

/// `formulary init`
struct InitCommand: Command {
    static let spec = CommandSpec(
        path: ["init"],
        abstract: "Creates the database, or brings it to the newest schema.",
        discussion: """
        Creates the database named by --db (or FORMULARY_DB, or ./formulary.db) and applies
        the migrations this binary carries: an SQLite file, or, for a postgres:// URL, the
        tables of a database on that server (create the database first with createdb). On
        an existing database it applies only the pending ones, so running it twice is
        harmless. A database whose applied migration differs from this binary's copy, or
        that has migrations this binary does not know, is refused and left untouched.
        """,
        examples: ["formulary init", "formulary --db /tmp/try.db init"])

    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let result = try SchemaService(workspace: context.workspace).initialize()
        let path = result.database
        if context.arguments[GlobalOption.format] == "json" {
            context.stdout.write(bytes: result.jsonDocument)
        } else if result.applied.isEmpty {
            context.stdout.line("\(path.forTerminal) is up to date.")
        } else {
            context.stdout.line("\(result.created ? "Created" : "Migrated") \(path.forTerminal): applied \(result.applied.joined(separator: ", ")).")
        }
        return .success
    }
}

/// `formulary migrate [--status]`
struct MigrateCommand: Command {
    static let status = Flag("status", help: "Lists the applied and the pending migrations.")
    static let spec = CommandSpec(
        path: ["migrate"],
        abstract: "Applies pending migrations; --status lists applied and pending ones.",
        discussion: """
        The pending migrations run with their bookkeeping rows (number, name and the SHA-256
        of the text) in one transaction: all are applied and recorded, or, when one fails,
        none is and the database is left as it was.
        --status changes nothing.
        """,
        options: [status],
        examples: ["formulary migrate --status", "formulary migrate"])

    let status: Bool
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        status = arguments[Self.status]
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let schema = SchemaService(workspace: context.workspace)
        if !status {
            let applied = try schema.migrate()
            context.stdout.line(applied.isEmpty ? "Nothing to migrate: \(context.workspace.databaseName.forTerminal) is up to date."
                                                : "Applied \(applied.joined(separator: ", ")).")
            return .success
        }
        let rows = try schema.migrationStatus()
        if format == .json {
            context.stdout.write(bytes: rows.jsonDocument)
        } else {
            let table = TextTable(header: ["ID", "NAME", "STATUS", "APPLIED"], rows: rows.map { row in
                [String(row.id), row.name, row.isApplied ? "applied" : "pending", row.appliedAt ?? ""]
            })
            context.stdout.write(table.render())
        }
        return .success
    }
}
