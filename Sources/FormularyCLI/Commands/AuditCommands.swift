import FormularyKit

/// `formulary audit [--since DATE] [--actor NAME]`
struct AuditCommand: Command {
    static let since = Option("since", "DATE", of: UTCTime.self,
                              help: "Only records at or after this UTC date or time.")
    static let actor = Option("actor", "NAME", help: "Only records by this actor (here a filter, not who is acting).")
    static let spec = CommandSpec(
        path: ["audit"],
        abstract: "Shows the audit log: every change to the database, who made it and when.",
        discussion: """
        Each record has a sequence number, a UTC time, an actor, an action (types.add,
        forms.add, import, validate…), a subject and details, and is chained to the one
        before by SHA-256; 'formulary audit verify' checks the chain. --since takes a date
        (YYYY-MM-DD) or a UTC time (YYYY-MM-DDTHH:MM[:SS[.mmm]], optionally ending in Z);
        records at or after it are shown. 'audit' changes nothing, so here --actor NAME
        filters the records by actor (FORMULARY_ACTOR does not).
        """,
        options: [since, actor],
        examples: ["formulary audit --since 2026-11-01", "formulary --format json audit --actor ada"])

    let format: OutputFormat
    let since: String?
    let actor: String?
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        actor = arguments[Self.actor]   // the command line only: a filter, not who is acting
        // Normalized to the stored spelling of times, so that comparing text compares times.
        since = try arguments.value(Self.since)?.text
        self.context = context
    }

    func run() throws -> ExitStatus {
        let records = try AuditService(workspace: context.workspace).records(since: since, actor: actor)
        if format == .json {
            context.stdout.write(bytes: records.jsonDocument)
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

/// `formulary audit verify [--head HASH]`
struct AuditVerifyCommand: Command {
    static let head = Option("head", "HASH", of: RecordHash.self,
                             help: "Also fail unless the log still holds the record with this hash (from 'audit head').")
    static let spec = CommandSpec(
        path: ["audit", "verify"],
        abstract: "Checks the database, the audit log's hash chain, and the data against the log.",
        discussion: """
        Runs the database's integrity checks (SQLite's integrity check on a file), compares
        the recorded migrations with this formulary's (name and SHA-256) and the schema with
        the one they create, recomputes every record's hash and its link to the record
        before, and recomputes the digests the log holds of the data: the entries each import
        wrote, every type and form added or retired, each validation run's counts and
        results, and every token of 'formulary serve' (its name, scope, secret's hash and
        revocation). Every difference is named, up to 20 per area. A change made to the data
        or the tokens outside formulary shows, and so does a log cut at its end.

        A whole log rewritten consistently can only be caught against a head kept somewhere
        else: save the line 'formulary audit head' prints (in a ticket, a commit, another
        machine) and pass its hash to --head later.

        Exit status: 0 when everything verifies, 1 when anything does not.
        """,
        options: [head],
        examples: ["formulary audit verify", "formulary audit verify --head 3f1c…e9a0"])

    let format: OutputFormat
    let head: String?
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        head = try arguments.value(Self.head)?.hex
        self.context = context
    }

    func run() throws -> ExitStatus {
        let report = try AuditService(workspace: context.workspace).verify(expectedHead: head)
        if format == .json {
            context.stdout.write(bytes: report.jsonDocument)
        } else {
            text(report)
        }
        return report.isValid ? .success : .violations
    }

    private func text(_ report: AuditReport) {
        let out = context.stdout
        let records = "\(ReportNumbers.grouped(report.chain.verifiedCount)) record\(report.chain.verifiedCount == 1 ? "" : "s")"
        if let failure = report.chain.failure {
            out.line("audit log does NOT verify: \(failure.description.forTerminal)")
            out.line("\(records) before it verified.")
        } else {
            out.line("audit log verifies: \(records), head \(report.headSeq) \(report.headHash)")
        }
        let c = report.covered
        if report.isValid {
            out.line("database: integrity check ok; \(Self.count(c.migrations, "migration")) recorded as this formulary has them, schema as they create it")
            out.line("data matches the log: \(Self.count(c.imports, "import")) (\(Self.count(c.entryVersions, "entry version"))), "
                + "\(Self.count(c.typeEvents, "type change")), \(Self.count(c.formEvents, "form change")), \(Self.count(c.runs, "run")), "
                + "\(Self.count(c.tokens, "token"))")
        } else {
            out.line("\(Self.count(report.problems.count, "problem")) found:")
            for p in report.problems { out.line("  \(p.area.rawValue): \(ReportEscaping.terminal(p.message))") }
        }
        for note in report.notes { out.line("note: \(ReportEscaping.terminal(note))") }
    }

    static func count(_ n: Int, _ noun: String) -> String {
        "\(ReportNumbers.grouped(n)) \(noun)\(n == 1 ? "" : "s")"
    }
}

/// `formulary audit head`
struct AuditHeadCommand: Command {
    static let spec = CommandSpec(
        path: ["audit", "head"],
        abstract: "Prints the newest audit record as 'SEQ HASH', to keep somewhere else.",
        discussion: """
        The hash of the newest record stands for the whole log before it. Keep the line
        outside the database (a ticket, a commit, another machine); later,
        'formulary audit verify --head HASH' fails unless the log still holds that record,
        which catches a log cut at its end or rewritten whole. An empty log prints
        '0' and 64 zeros.
        """,
        examples: ["formulary audit head >> ~/formulary-heads.txt"])

    let format: OutputFormat
    let context: CommandContext

    init(arguments: ParsedArguments, context: CommandContext) throws {
        format = try context.format(offered: Self.spec.formats)
        self.context = context
    }

    func run() throws -> ExitStatus {
        let head = try AuditService(workspace: context.workspace).head()
        if format == .json {
            context.stdout.write(bytes: head.jsonDocument)
        } else {
            context.stdout.line("\(head.seq) \(head.hash)")
        }
        return .success
    }
}
