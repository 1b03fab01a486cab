/// Something `audit verify` found wrong: with the database file, its schema, the log, or
/// data that does not match what the log recorded.
public struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public enum Area: String, Sendable, Hashable, CaseIterable {
        /// SQLite's own integrity and foreign-key checks.
        case database
        /// Tables, indexes and triggers that differ from what the migrations create.
        case schema
        /// `schema_migrations` against the migrations this formulary has.
        case migrations
        /// The hash chain and its head.
        case log
        /// A head kept elsewhere (`--head`) that the log no longer holds.
        case head
        case types, forms, imports, entries, runs
        /// Tokens of `formulary serve` against their records: who may act.
        case tokens
    }

    public var area: Area
    /// One sentence: what does not match, and where.
    public var message: String
    /// The audit record concerned, when there is one.
    public var seq: Int64?

    public init(area: Area, message: String, seq: Int64? = nil) {
        self.area = area
        self.message = message
        self.seq = seq
    }

    public var description: String { "\(area.rawValue): \(message)" }
}

/// What `audit verify` found: the chain, the database, and the data against the log.
public struct AuditReport: Sendable, Hashable {
    /// The hash chain, from the first record to the head.
    public var chain: AuditVerification
    /// Every problem found, the chain's first failure included, in the order of
    /// ``AuditProblem/Area``.
    public var problems: [AuditProblem]
    /// Facts that are not problems but limit what was proved, e.g. a run still in progress
    /// or one whose process died before it ended (its results are proved once the next
    /// `validate` seals it).
    public var notes: [String]
    /// What the data check covered.
    public var covered: Coverage

    /// How much data was checked against the log.
    public struct Coverage: Sendable, Hashable {
        public var imports = 0
        /// Entry versions (current and earlier) whose import's digest was recomputed.
        public var entryVersions = 0
        public var typeEvents = 0
        public var formEvents = 0
        public var runs = 0
        /// Rows of `api_tokens`, revoked ones too.
        public var tokens = 0
        /// Rows of `schema_migrations`, each compared with this formulary's copy.
        public var migrations = 0
        public init() {}
    }

    /// The newest record (`audit head`): `seq` 0 and 64 zeros for an empty log.
    public var headSeq: Int64
    public var headHash: String

    public var isValid: Bool { problems.isEmpty }
}
