import FormularyJSON
import FormularyKit
import FormularyStore

/// `formulary audit [--since DATE] [--actor NAME]`
struct AuditCommand: Command {
    static let spec = CommandSpec(
        path: ["audit"],
        abstract: "Shows the audit log: every change to the database, who made it and when.",
        usage: "audit [--since DATE] [--actor NAME]",
        discussion: """
        Each record has a sequence number, a UTC time, an actor, an action (types.add,
        forms.add, import, validate…), a subject and details, and is chained to the one
        before by SHA-256; 'formulary audit verify' checks the chain. --since takes a date
        (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM[:SS[.mmm]], optionally ending in Z);
        records at or after it are shown. 'audit' changes nothing, so here --actor NAME
        filters the records by actor (FORMULARY_ACTOR does not).
        """,
        options: [
            OptionSpec(name: "since", kind: .value("DATE"), help: "Only records at or after this UTC date or time."),
        ],
        examples: ["formulary audit --since 2026-11-01", "formulary --format json audit --actor ada"])

    let format: OutputFormat
    let since: String?
    let actor: String?
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: [.text, .json])
        actor = arguments.value("actor")   // the command line only: a filter, not who is acting
        if let text = arguments.value("since") {
            // Normalized to the stored spelling of times, so that comparing text compares times.
            do {
                since = try DateArgument.utcTime(text)
            } catch {
                throw UsageError(message: "--since '\(text)' is not a date or time\(error.parenthesized); write a date "
                                 + "YYYY-MM-DD or a UTC time YYYY-MM-DDTHH:MM[:SS[.mmm]][Z], e.g. 2026-11-29 or 2026-11-29T14:30Z",
                                 helpCommand: "audit")
            }
        } else {
            since = nil
        }
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore()
        let records = try store.auditRecords(since: since, actor: actor)
        if format == .json {
            var w = JSONWriter()
            w.array { a in
                for r in records {
                    a.object { o in
                        o.field("seq", Int(r.seq))
                        o.field("at", r.at)
                        o.field("actor", r.actor)
                        o.field("action", r.action)
                        o.field("subject", r.subject)
                        o.field("details", (try? JSONValue(parsing: r.details)) ?? .string(r.details))
                        o.field("prev_hash", r.prevHash)
                        o.field("hash", r.hash)
                    }
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else {
            context.stdout.write(TextTable(header: ["SEQ", "WHEN", "ACTOR", "ACTION", "SUBJECT", "DETAILS"], rows: records.map {
                // Actors come from the environment and subjects from files: no raw escapes.
                [String($0.seq), $0.at, ReportEscaping.terminal($0.actor), $0.action,
                 ReportEscaping.terminal($0.subject), ReportEscaping.terminal($0.details)]
            }).render())
        }
        return .success
    }
}

/// `formulary audit verify`
struct AuditVerifyCommand: Command {
    static let spec = CommandSpec(
        path: ["audit", "verify"],
        abstract: "Recomputes the audit log's hash chain and names the first record that fails.",
        usage: "audit verify",
        discussion: """
        Checks every record's hash, its link to the record before, the sequence, and that
        nothing was cut off the end. Prints the head hash: keep a copy outside the database
        to be able to detect a rewrite of the whole chain later.

        Exit status: 0 when the chain verifies, 1 when a record does not.
        """,
        examples: ["formulary audit verify"])

    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: [.text, .json])
        self.context = context
    }

    func run() throws -> ExitStatus {
        let store = try context.openStore()
        let result = try store.verifyAudit()
        if format == .json {
            var w = JSONWriter()
            w.object { o in
                o.field("valid", result.isValid)
                o.field("verified", result.verifiedCount)
                o.field("head_hash", result.headHash)
                if let f = result.failure {
                    o.field("first_bad_seq", Int(f.seq))
                    o.field("problem", f.description)
                }
            }
            w.newline()
            context.stdout.write(bytes: w.bytes)
        } else if let f = result.failure {
            context.stdout.line("audit log does NOT verify: \(f.description)")
            context.stdout.line("\(result.verifiedCount) record\(result.verifiedCount == 1 ? "" : "s") before it verified.")
        } else {
            context.stdout.line("audit log verifies: \(result.verifiedCount) record\(result.verifiedCount == 1 ? "" : "s"), head \(result.headHash)")
        }
        return result.isValid ? .success : .violations
    }
}
