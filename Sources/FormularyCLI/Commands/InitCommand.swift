import FormularyJSON
import FormularyKit
import FormularyStore

/// `formulary init`
struct InitCommand: Command {
    static let spec = CommandSpec(
        path: ["init"],
        abstract: "Creates the database, or brings it to the newest schema.",
        discussion: """
        Creates the SQLite database named by --db (or FORMULARY_DB, or ./formulary.db) and
        applies the migrations this binary carries. On an existing database it applies only
        the pending ones, so running it twice is harmless. A database whose applied migration
        differs from this binary's copy, or that has migrations this binary does not know, is
        refused and left untouched.
        """,
        examples: ["formulary init", "formulary --db /tmp/try.db init"])

    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        // An empty file (made by `touch`, or left by an init that failed) is created, not migrated.
        let existed = context.databaseExists
            && (try? FileSystem.prefix(of: context.databasePath, count: 1))?.isEmpty == false
        let store = try context.openStore(.write, create: true, requireSchema: false)
        let applied = try store.migrate(actor: context.actor)
        let path = context.databasePath
        if context.arguments.value("format") == "json" {
            var w = JSONWriter()
            w.object { o in
                o.field("database", path)
                o.field("created", !existed)
                o.array("applied") { a in for m in applied { a.value(m.name) } }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else if applied.isEmpty {
            context.stdout.line("\(path.forTerminal) is up to date.")
        } else {
            context.stdout.line("\(existed ? "Migrated" : "Created") \(path.forTerminal): applied \(applied.map(\.name).joined(separator: ", ")).")
        }
        return .success
    }
}

/// `formulary migrate [--status]`
struct MigrateCommand: Command {
    static let spec = CommandSpec(
        path: ["migrate"],
        abstract: "Applies pending migrations; --status lists applied and pending ones.",
        discussion: """
        The pending migrations run with their bookkeeping rows (number, name and the SHA-256
        of the text) in one transaction: all are applied and recorded, or, when one fails,
        none is and the database is left as it was.
        --status changes nothing.
        """,
        options: [.flag("status", help: "Lists the applied and the pending migrations.")],
        examples: ["formulary migrate --status", "formulary migrate"])

    let status: Bool
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        status = arguments.flag("status")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore(status ? .read : .write, requireSchema: false)
        if !status {
            let applied = try store.migrate(actor: context.actor)
            context.stdout.line(applied.isEmpty ? "Nothing to migrate: \(context.databasePath.forTerminal) is up to date."
                                                : "Applied \(applied.map(\.name).joined(separator: ", ")).")
            return .success
        }
        let rows = try store.migrationStatus()
        if format == .json {
            var w = JSONWriter()
            w.array { a in
                for row in rows {
                    a.object { o in
                        o.field("id", row.id)
                        o.field("name", row.name)
                        switch row {
                        case .applied(let m):
                            o.field("status", "applied")
                            o.field("sha256", m.sha256)
                            o.field("applied_at", m.appliedAt)
                        case .pending(let m):
                            o.field("status", "pending")
                            o.field("sha256", m.sha256)
                        }
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            let table = TextTable(header: ["ID", "NAME", "STATUS", "APPLIED"], rows: rows.map { row in
                switch row {
                case .applied(let m): [String(m.id), m.name, "applied", m.appliedAt]
                case .pending(let m): [String(m.id), m.name, "pending", ""]
                }
            })
            context.stdout.write(table.render())
        }
        return .success
    }
}
