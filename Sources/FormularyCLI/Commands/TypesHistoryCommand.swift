import FormularyJSON
import FormularyKit
import FormularyStore

/// `formulary types history NAME`
struct TypesHistoryCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "history"],
        abstract: "Every stored version of a type: when, by whom, hash, what changed.",
        discussion: """
        Lists what happened to the name in the database, oldest first: each 'add' with the
        version it made current, each 'retire', and versions recorded because a validation
        run used a built-in or folder type. The CHANGE column says how a version differs
        from the one before it (lines added and removed in the canonical definition).
        """,
        arguments: [ArgumentSpec(name: "NAME", help: "The type's name; it need not be current any more.")],
        examples: ["formulary types history credit-card"])

    let name: String
    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.positional("NAME")
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        try DefinitionHistory.print(.type, name: name, context: context, format: format)
    }
}

/// `formulary types retire NAME`
struct TypesRetireCommand: Command {
    static let spec = CommandSpec(
        path: ["types", "retire"],
        abstract: "Hides a database type from the registry; its versions stay (audited).",
        discussion: """
        After retiring, the name resolves to whatever the other sources have (a built-in type
        of that name, or a plugin folder's), or to nothing. Every version stays in the
        database, so earlier validation results still name the version that judged them.
        'types add' brings a type back.
        """,
        arguments: [ArgumentSpec(name: "NAME", help: "The name of a type added to the database with 'types add'.")],
        formats: [.text],
        examples: ["formulary types retire visa"])

    let name: String
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        name = try arguments.positional("NAME")
        _ = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore(.write)
        let retired = try store.retire(.type, name: name, actor: context.actor)
        context.stdout.line("\(name.forTerminal): retired (its last version was \(retired.shortHash))")
        return .success
    }
}

/// `types history` and `forms show`'s list of versions.
enum DefinitionHistory {
    static func print(_ kind: DefinitionKind, name: String, context: CommandContext,
                      format: OutputFormat) throws -> ExitStatus {
        let store = try context.openStore()
        let versions = try store.versions(kind, name: name)
        let events = try store.events(kind, name: name)
        guard !versions.isEmpty || !events.isEmpty else {
            throw CommandFailure(status: .badInput,
                                 message: "the database has no history for \(kind.rawValue) '\(name)'; only types added with 'types add' or used by a validation run have one")
        }
        // Rows: every event, plus versions only recorded by runs (no event names them).
        struct Row { var at, actor, action, hash, origin, change: String }
        var rows: [Row] = []
        var previousSource: String?
        var eventVersionIDs = Set<Int64>()
        for event in events {
            if let v = event.version { eventVersionIDs.insert(v.id) }
            let change: String
            if let v = event.version {
                change = previousSource.map { Self.change(from: $0, to: v.source) } ?? "first version"
                previousSource = v.source
            } else {
                change = "hidden from the registry"
            }
            rows.append(Row(at: event.at, actor: event.actor, action: event.action.rawValue,
                            hash: event.version?.hash ?? "", origin: event.version?.origin ?? "", change: change))
        }
        for v in versions where !eventVersionIDs.contains(v.id) {
            rows.append(Row(at: v.recordedAt, actor: v.actor, action: "used", hash: v.hash, origin: v.origin,
                            change: "recorded by a validation run"))
        }
        rows.sort { $0.at < $1.at }
        if format == .json {
            var w = JSONWriter()
            w.array { a in
                for r in rows {
                    a.object { o in
                        o.field("at", r.at)
                        o.field("actor", r.actor)
                        o.field("action", r.action)
                        if r.hash.isEmpty { o.nullField("hash") } else { o.field("hash", r.hash) }
                        o.field("origin", r.origin)
                        o.field("change", r.change)
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            let table = TextTable(header: ["WHEN", "BY", "ACTION", "VERSION", "ORIGIN", "CHANGE"],
                                  rows: rows.map { [$0.at, $0.actor, $0.action, String($0.hash.prefix(12)), $0.origin, $0.change] })
            context.stdout.write(table.render())
        }
        return .success
    }

    /// "+2 −1 lines" between two canonical sources (a multiset difference of lines).
    static func change(from old: String, to new: String) -> String {
        var counts: [Substring: Int] = [:]
        for line in old.split(separator: "\n") { counts[line, default: 0] += 1 }
        var added = 0
        for line in new.split(separator: "\n") {
            if let c = counts[line], c > 0 { counts[line] = c - 1 } else { added += 1 }
        }
        let removed = counts.values.reduce(0, +)
        return added == 0 && removed == 0 ? "same definition" : "+\(added) −\(removed) lines"
    }
}
