import FormularyJSON
import FormularyRules

/// `audit verify`: the database file, its schema, the hash chain, and the data against what
/// the log recorded of it, all in one read transaction.
///
/// What each check can and cannot detect is in docs/reliability.md ("The audit log proves the
/// data"). In short: any change made outside Formulary to entries, imports, type and form
/// versions and events, or runs and their results shows as a digest that no longer matches
/// its record, or as data that no record accounts for; a log cut at its end shows as data
/// without records; a log rewritten whole shows only against a head kept elsewhere.
struct AuditVerifier {
    let store: Store
    /// At most this many problems are listed per area; the rest are counted.
    static let problemsPerArea = 20

    func run(expectedHead: String?) throws -> AuditReport {
        // Reads only: a damaged file can make even the read transaction's commit fail, after
        // the report has been made, and nothing is lost by ending it with a rollback instead.
        try store.backend.inspect {
            // First: the migrations decide what schema the rest is checked against, and a
            // database whose schema this formulary cannot read is refused here, as by every
            // other command.
            let migrations = try migrationBookkeeping()
            let chain = try store.verifyAudit()
            let records = try store.auditRecords()
            let head = records.last.map { ($0.seq, $0.hash) } ?? (0, AuditLog.genesisHash)
            var report = AuditReport(chain: chain, problems: [], notes: [], covered: .init(),
                                     headSeq: head.0, headHash: head.1)
            report.covered.migrations = migrations.recorded
            var problems = try store.backend.storageProblems(limit: Self.problemsPerArea, schemaOf: migrations.schemaOf)
            problems += migrations.problems
            if let failure = chain.failure {
                problems.append(AuditProblem(area: .log, message: failure.description, seq: failure.seq))
            }
            if let expectedHead, !records.contains(where: { $0.hash == expectedHead }) {
                problems.append(AuditProblem(area: .head, message:
                    "the log holds no record with hash \(expectedHead): records were cut from its end or the log was rewritten since that head was taken"))
            }
            let index = RecordIndex(records)
            problems += index.problems
            do {
                problems += try definitionProblems(index, report: &report)
                problems += try importProblems(index, report: &report)
                problems += try runProblems(index, report: &report)
                problems += try tokenProblems(index, report: &report)
            } catch {
                // A damaged file or a changed schema can keep the data from being read.
                problems.append(AuditProblem(area: .database, message: "the data could not be read to check it against the log: \(error)"))
            }
            report.problems = Self.limited(problems)
            return report
        }
    }

    // MARK: Migrations

    /// `schema_migrations` against the migrations this formulary has, and the migrations the
    /// schema must therefore be made of.
    ///
    /// Formulary applies migrations in order, every pending one in one transaction with its
    /// row, so a database it migrated records a prefix of this formulary's list, each row
    /// with the name and SHA-256 of this formulary's copy (the file's text compiled into the
    /// executable). A row edited, deleted or added by hand breaks that, and is named. A row
    /// deleted off the end makes its migration look pending: it is told apart from one that
    /// really is by the schema, which already holds what the migration creates (its tables,
    /// indexes, triggers). `applied_at` is what the migrating process said; nothing proves it.
    ///
    /// - Throws: ``MigrationError/unknown(id:name:)`` for a migration newer than any this
    ///   formulary has (a newer formulary applied it), ``StoreError/schemaOutOfDate(pending:)``
    ///   when migrations are pending and the schema holds nothing of them: this formulary
    ///   cannot read such a database, as for every command.
    func migrationBookkeeping() throws -> (schemaOf: [Migration], recorded: Int, problems: [AuditProblem]) {
        let known = store.backend.knownMigrations
        let recorded = try store.backend.recordedMigrations()
        let newestKnown = known.last?.id ?? 0
        if let newer = recorded.last, newer.id > newestKnown {
            throw MigrationError.unknown(id: newer.id, name: newer.name)
        }
        let byID = Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) })
        var problems: [AuditProblem] = []
        func problem(_ message: String) { problems.append(AuditProblem(area: .migrations, message: message)) }
        for row in recorded {
            guard let migration = byID[row.id] else {
                problem("schema_migrations records migration \(row.id) (\(row.name)), which this formulary does not have though it has later ones: the row was written outside formulary")
                continue
            }
            if row.name != migration.name {
                problem("migration \(row.id) is recorded as '\(row.name)', but it is \(migration.name): its row was edited outside formulary")
            } else if row.sha256 != migration.sha256 {
                problem("migration \(row.id) (\(row.name)) is recorded with SHA-256 \(row.sha256.prefix(12))…, but this formulary's copy has \(migration.sha256.prefix(12))…: its row was edited, or the database was migrated from a changed file")
            }
        }
        let recordedIDs = Set(recorded.map(\.id))
        let newestRecorded = recorded.map(\.id).filter { byID[$0] != nil }.max() ?? 0
        var schemaOf = known.filter { $0.id <= newestRecorded }
        for migration in schemaOf where !recordedIDs.contains(migration.id) {
            problem("migration \(migration.id) (\(migration.name)) is not recorded as applied, though later ones are: its row was deleted outside formulary")
        }
        var pending: [Migration] = []
        for migration in known where migration.id > newestRecorded {
            if pending.isEmpty, try store.backend.schemaHolds(migration, after: schemaOf) {
                problem("migration \(migration.id) (\(migration.name)) is not recorded as applied, but the schema holds what it creates: its row was deleted outside formulary")
                schemaOf.append(migration)
            } else {
                pending.append(migration)
            }
        }
        if !pending.isEmpty { throw StoreError.schemaOutOfDate(pending: pending.map(\.name)) }
        return (schemaOf, recorded.count, problems)
    }

    // MARK: Types and forms

    private func definitionProblems(_ index: RecordIndex, report: inout AuditReport) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        for kind in [DefinitionKind.type, .form] {
            let area: AuditProblem.Area = kind == .type ? .types : .forms
            let events = try store.recomputeEvents(kind)
            let recorded = index.events[kind] ?? [:]
            for (id, (event, digest)) in events.sorted(by: { $0.key < $1.key }) {
                let what = "\(kind.rawValue) '\(event.name)': the \(event.action.rawValue) of \(event.at) by \(event.actor)"
                guard let record = recorded[id] else {
                    problems.append(AuditProblem(area: area, message: "\(what) has no audit record: it was written outside formulary, or its record was cut from the log"))
                    continue
                }
                if record.digest != digest {
                    problems.append(AuditProblem(area: area, message: "\(what) differs from what audit record \(record.seq) recorded", seq: record.seq))
                }
            }
            for (id, record) in recorded.sorted(by: { $0.key < $1.key }) where events[id] == nil {
                problems.append(AuditProblem(area: area, message: "audit record \(record.seq) recorded \(kind.rawValue) event \(id), which is gone", seq: record.seq))
            }
            if kind == .type { report.covered.typeEvents = events.count } else { report.covered.formEvents = events.count }
            problems += try versionProblems(kind, area: area)
        }
        return problems
    }

    /// Every stored version's hash is the SHA-256 of its source, and every version is one
    /// that an event or a run refers to (a version nothing refers to was slipped in).
    private func versionProblems(_ kind: DefinitionKind, area: AuditProblem.Area) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        let referenced = Set(try store.referencedVersionIDs(kind))
        for version in try store.allVersions(kind) {
            let computed = SHA256.hex(version.source)
            if computed != version.hash {
                problems.append(AuditProblem(area: area, message: "\(kind.rawValue) '\(version.name)' version \(version.id): its source does not hash to its recorded hash \(version.shortHash)…: the source was edited"))
            }
            if kind == .type && version.secure != PluginSource.declaresSecure(typeSource: version.source) {
                problems.append(AuditProblem(area: area, message: "type '\(version.name)' version \(version.id) is recorded as \(version.secure ? "" : "not ")secure, but its source says otherwise: the flag was changed"))
            }
            if !referenced.contains(version.id) {
                problems.append(AuditProblem(area: area, message: "\(kind.rawValue) '\(version.name)' version \(version.id) (\(version.shortHash)…) was neither added nor used by a run: it was written outside formulary"))
            }
        }
        return problems
    }

    // MARK: Imports and entries

    private func importProblems(_ index: RecordIndex, report: inout AuditReport) throws -> [AuditProblem] {
        let recomputed = try store.recomputeImports()
        var problems = recomputed.problems
        let headers = try store.backend.importHeaders()
        for (id, found) in recomputed.imports.sorted(by: { $0.key < $1.key }) {
            let header = headers[id]
            let what = "import \(id) (\(header?.source ?? "?") into '\(header?.form ?? "?")' at \(header?.at ?? "?") by \(header?.actor ?? "?"))"
            report.covered.entryVersions += found.created + found.updated
            guard let record = index.imports[id] else {
                problems.append(AuditProblem(area: .imports, message: "\(what) has no audit record: it was written outside formulary, or its record was cut from the log"))
                continue
            }
            if record.created != found.created || record.updated != found.updated {
                problems.append(AuditProblem(area: .entries, message:
                    "\(what): audit record \(record.seq) recorded \(record.created) added and \(record.updated) updated, the tables hold \(found.created) and \(found.updated): entries were inserted or deleted", seq: record.seq))
            } else if record.digest != found.digest {
                problems.append(AuditProblem(area: .entries, message: "\(what): its entries differ from what audit record \(record.seq) recorded", seq: record.seq))
            }
        }
        for (id, record) in index.imports.sorted(by: { $0.key < $1.key }) where recomputed.imports[id] == nil {
            problems.append(AuditProblem(area: .imports, message: "audit record \(record.seq) recorded import \(id), which is gone", seq: record.seq))
        }
        report.covered.imports = recomputed.imports.count
        return problems
    }

    // MARK: Runs

    private func runProblems(_ index: RecordIndex, report: inout AuditReport) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        let ids = try store.runIDs()
        for id in ids {
            guard let digests = try store.recomputeRun(id), let run = try store.run(id: id) else { continue }
            let start = index.runStarts[id]
            let end = index.runEnds[id]
            if start == nil && end == nil {
                problems.append(AuditProblem(area: .runs, message: "run \(id) (started \(run.startedAt) by \(run.actor)) has no audit record: it was written outside formulary, or its records were cut from the log"))
                continue
            }
            if let start, start.digest != digests.start {
                problems.append(AuditProblem(area: .runs, message: "run \(id): what it judged with (forms, type versions) differs from what audit record \(start.seq) recorded", seq: start.seq))
            }
            if let end {
                if end.digest != digests.full {
                    problems.append(AuditProblem(area: .runs, message: "run \(id): its status, counts or results differ from what audit record \(end.seq) recorded", seq: end.seq))
                }
            } else if run.recordedStatus != .running {
                problems.append(AuditProblem(area: .runs, message: "run \(id) is recorded as \(run.recordedStatus.rawValue), but no audit record ends it: its status was changed outside formulary, or its record was cut from the log"))
            } else if run.status == .running {
                report.notes.append("run \(id) is in progress; its results are proved once it ends")
            } else {
                report.notes.append("run \(id)'s process ended before the run did; what it committed is proved once the next 'formulary validate' seals it")
            }
        }
        let known = Set(ids)
        for (id, record) in index.runStarts.merging(index.runEnds, uniquingKeysWith: { a, _ in a })
            .sorted(by: { $0.key < $1.key }) where !known.contains(id) {
            problems.append(AuditProblem(area: .runs, message: "audit record \(record.seq) recorded run \(id), which is gone", seq: record.seq))
        }
        report.covered.runs = ids.count
        return problems
    }

    // MARK: Tokens

    /// Every token's row against the newest record of it, and every token the log made
    /// against the rows: a token un-revoked, given another scope or secret, slipped in or
    /// removed shows, and so does a token record cut off the end of the log (the row then
    /// says more than the log does). Messages name the token and what differs, never its
    /// hash.
    private func tokenProblems(_ index: RecordIndex, report: inout AuditReport) throws -> [AuditProblem] {
        var problems: [AuditProblem] = []
        let key = try store.auditKey()
        let rows = try store.tokens()
        for token in rows {
            let what = "token '\(token.name)' (id \(token.id), scope \(token.scope), made at \(token.createdAt) by \(token.createdBy))"
            guard let record = index.tokens[token.id] else {
                problems.append(AuditProblem(area: .tokens, message: "\(what) has no audit record: it was written outside formulary, or its record was cut from the log"))
                continue
            }
            if let problem = Self.difference(token, record, digest: DataDigests.tokenDigest(key: key, token: token)) {
                problems.append(AuditProblem(area: .tokens, message: "\(what): \(problem)", seq: record.seq))
            }
        }
        let stored = Set(rows.map(\.id))
        for (id, record) in index.tokens.sorted(by: { $0.key < $1.key }) where !stored.contains(id) {
            problems.append(AuditProblem(area: .tokens, message: "audit record \(record.seq) recorded token '\(record.name)' (id \(id)), which is gone: its row was deleted outside formulary", seq: record.seq))
        }
        report.covered.tokens = rows.count
        return problems
    }

    /// What differs between a token's row and the newest record of it, in words, or nil when
    /// its digest matches. The clear fields are compared first, so that the message can say
    /// what changed; what only the digest covers (the token's hash, when and by whom it was
    /// made) is named last.
    static func difference(_ token: StoredToken, _ record: RecordIndex.TokenRecord, digest: String) -> String? {
        guard digest != record.digest else { return nil }
        let which = "audit record \(record.seq) (\(record.action))"
        if token.name != record.name {
            return "the table names it '\(token.name)', but \(which) recorded it as '\(record.name)'"
        }
        if let scope = record.scope, scope != token.scope {
            return "the table gives it scope \(token.scope), but \(which) recorded scope \(scope): its scope was changed outside formulary"
        }
        switch (token.revokedAt, record.revokedAt) {
        case (nil, let recorded?):
            return "the table says it works, but \(which) recorded its revocation at \(recorded): it was un-revoked outside formulary"
        case (let revoked?, nil):
            return "the table says it was revoked at \(revoked), but \(which), the newest record of it, says it works: the revocation was written outside formulary, or its record was cut from the log"
        case let (revoked?, recorded?) where revoked != recorded:
            return "the table says it was revoked at \(revoked), but \(which) recorded its revocation at \(recorded)"
        default:
            return "its secret's hash, or when or by whom it was made, differs from what \(which) recorded: the token was replaced outside formulary"
        }
    }

    // MARK: Output

    /// Problems in area order, at most ``problemsPerArea`` of each, plus one line for the rest.
    static func limited(_ problems: [AuditProblem]) -> [AuditProblem] {
        var out: [AuditProblem] = []
        for area in AuditProblem.Area.allCases {
            let inArea = problems.filter { $0.area == area }
            out += inArea.prefix(problemsPerArea)
            if inArea.count > problemsPerArea {
                out.append(AuditProblem(area: area, message: "and \(inArea.count - problemsPerArea) more"))
            }
        }
        return out
    }
}

extension Store {
    /// Checks the database, its schema, the audit chain, and the data against the log
    /// (`audit verify`). With `expectedHead`, also that the log still holds a record with
    /// that hash (a head kept elsewhere: a cut or rewritten log no longer does).
    package func auditReport(expectedHead: String? = nil) throws -> AuditReport {
        try AuditVerifier(store: self).run(expectedHead: expectedHead)
    }

    /// The newest record's sequence number and hash (`audit head`); 0 and 64 zeros when the
    /// log is empty.
    package func auditHead() throws -> (seq: Int64, hash: String) {
        try backend.lastAuditRecord().map { ($0.seq, $0.hash) } ?? (0, AuditLog.genesisHash)
    }
}
