/// Something `audit verify` found wrong: with the database file, its schema, the log, or
/// data that does not match what the log recorded.
package struct AuditProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    package enum Area: String, Sendable, Hashable, CaseIterable {
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

    package var area: Area
    /// One sentence: what does not match, and where.
    package var message: String
    /// The audit record concerned, when there is one.
    package var seq: Int64?

    package init(area: Area, message: String, seq: Int64? = nil) {
        self.area = area
        self.message = message
        self.seq = seq
    }

    package var description: String { "\(area.rawValue): \(message)" }
}

/// What `audit verify` found: the chain, the database, and the data against the log.
package struct AuditReport: Sendable, Hashable {
    /// The hash chain, from the first record to the head.
    package var chain: AuditVerification
    /// Every problem found, the chain's first failure included, in the order of
    /// ``AuditProblem/Area``.
    package var problems: [AuditProblem]
    /// Facts that are not problems but limit what was proved, e.g. a run still in progress
    /// or one whose process died before it ended (its results are proved once the next
    /// `validate` seals it).
    package var notes: [String]
    /// What the data check covered.
    package var covered: Coverage

    /// How much data was checked against the log.
    package struct Coverage: Sendable, Hashable {
        package var imports = 0
        /// Entry versions (current and earlier) whose import's digest was recomputed.
        package var entryVersions = 0
        package var typeEvents = 0
        package var formEvents = 0
        package var runs = 0
        /// Rows of `api_tokens`, revoked ones too.
        package var tokens = 0
        /// Rows of `schema_migrations`, each compared with this formulary's copy.
        package var migrations = 0
        package init() {}
    }

    /// The newest record (`audit head`): `seq` 0 and 64 zeros for an empty log.
    package var headSeq: Int64
    package var headHash: String

    package var isValid: Bool { problems.isEmpty }
}
