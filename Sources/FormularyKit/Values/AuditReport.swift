import FormularyStore

/// One record of the audit log.
public struct AuditRecord: Sendable, Hashable {
    /// 1, 2, 3… without gaps.
    public var seq: Int64
    /// UTC ISO 8601 with milliseconds.
    public var at: String
    /// Who acted.
    public var actor: String
    /// What was done, e.g. `types.add`, `entries.import`.
    public var action: String
    /// What it was done to, e.g. a type's name.
    public var subject: String
    /// Canonical JSON text (keys sorted, no whitespace). Never holds secure values.
    public var details: String
    /// The previous record's hash; 64 zeros for the first record.
    public var prevHash: String
    /// SHA-256 hex of the record's canonical encoding, chained to ``prevHash``.
    public var hash: String

    package init(_ stored: FormularyStore.AuditRecord) {
        seq = stored.seq
        at = stored.at
        actor = stored.actor
        action = stored.action
        subject = stored.subject
        details = stored.details
        prevHash = stored.prevHash
        hash = stored.hash
    }
}

/// What `audit verify` found: the chain, the database, and the data against the log.
public struct AuditReport: Sendable, Hashable {
    /// The hash chain, from the first record to the head.
    public var chain: Chain
    /// Every problem found, the chain's first failure included, in the order of
    /// ``AuditProblem/Area``.
    public var problems: [AuditProblem]
    /// Facts that are not problems but limit what was proved, e.g. a run still in progress.
    public var notes: [String]
    /// What the data check covered.
    public var covered: Coverage
    /// The newest record's sequence number (`audit head`): 0 for an empty log.
    public var headSeq: Int64
    /// The newest record's hash: 64 zeros for an empty log.
    public var headHash: String

    /// Whether nothing was found wrong.
    public var isValid: Bool { problems.isEmpty }

    /// The hash chain's verification.
    public struct Chain: Sendable, Hashable {
        /// Records that verified, from the first one on.
        public var verifiedCount: Int
        /// The hash of the last verified record (64 zeros when there is none).
        public var headHash: String
        /// The first record that does not verify, or nil when the whole chain verifies.
        public var failure: Failure?
    }

    /// The first record of the chain that does not verify.
    public struct Failure: Sendable, Hashable, CustomStringConvertible {
        /// Its sequence number (for a truncated log, the first missing one).
        public var seq: Int64
        /// Why it does not verify, in a sentence.
        public var description: String
    }

    /// How much data was checked against the log.
    public struct Coverage: Sendable, Hashable {
        /// Imports whose digests were recomputed.
        public var imports: Int
        /// Entry versions (current and earlier) whose import's digest was recomputed.
        public var entryVersions: Int
        /// Type events checked.
        public var typeEvents: Int
        /// Form events checked.
        public var formEvents: Int
        /// Runs checked.
        public var runs: Int
        /// Rows of `api_tokens`, revoked ones too.
        public var tokens: Int
        /// Rows of `schema_migrations`, each compared with this formulary's copy.
        public var migrations: Int
    }

    package init(_ stored: FormularyStore.AuditReport) {
        let chain = stored.chain
        self.chain = Chain(verifiedCount: chain.verifiedCount, headHash: chain.headHash,
                           failure: chain.failure.map { Failure(seq: $0.seq, description: $0.description) })
        problems = stored.problems.map(AuditProblem.init)
        notes = stored.notes
        let c = stored.covered
        covered = Coverage(imports: c.imports, entryVersions: c.entryVersions, typeEvents: c.typeEvents,
                           formEvents: c.formEvents, runs: c.runs, tokens: c.tokens, migrations: c.migrations)
        headSeq = stored.headSeq
        headHash = stored.headHash
    }
}

/// Something `audit verify` found wrong: with the database, its schema, the log, or data
/// that does not match what the log recorded.
public struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public var area: Area
    /// One sentence: what does not match, and where.
    public var message: String
    /// The audit record concerned, when there is one.
    public var seq: Int64?

    /// `AREA: MESSAGE`.
    public var description: String { "\(area.rawValue): \(message)" }

    /// Where a problem is, in the order `audit verify` checks.
    public enum Area: String, Sendable, Hashable, CaseIterable {
        /// The database's own integrity and foreign-key checks.
        case database
        /// Tables, indexes and triggers that differ from what the migrations create.
        case schema
        /// `schema_migrations` against the migrations this formulary has.
        case migrations
        /// The hash chain and its head.
        case log
        /// A head kept elsewhere (`--head`) that the log no longer holds.
        case head
        /// Type events against the log.
        case types
        /// Form events against the log.
        case forms
        /// Imports against the log.
        case imports
        /// Entries against their imports' digests.
        case entries
        /// Runs against the log.
        case runs
        /// Tokens of `formulary serve` against their records: who may act.
        case tokens

        package init(_ stored: FormularyStore.AuditProblem.Area) {
            self = switch stored {
            case .database: .database
            case .schema: .schema
            case .migrations: .migrations
            case .log: .log
            case .head: .head
            case .types: .types
            case .forms: .forms
            case .imports: .imports
            case .entries: .entries
            case .runs: .runs
            case .tokens: .tokens
            }
        }
    }

    package init(_ stored: FormularyStore.AuditProblem) {
        area = Area(stored.area)
        message = stored.message
        seq = stored.seq
    }
}
