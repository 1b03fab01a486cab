/// One record of the audit log.
package struct AuditRecord: Sendable, Hashable {
    /// 1, 2, 3… without gaps.
    package var seq: Int64
    /// UTC ISO 8601 with milliseconds.
    package var at: String
    package var actor: String
    /// What was done, e.g. `types.add`, `entries.import`.
    package var action: String
    /// What it was done to, e.g. a type's name.
    package var subject: String
    /// Canonical JSON text (keys sorted, no whitespace). Never holds secure values.
    package var details: String
    /// The previous record's hash; 64 zeros for the first record.
    package var prevHash: String
    /// SHA-256 hex of ``AuditLog/canonicalEncoding(prevHash:seq:at:actor:action:subject:details:)``.
    package var hash: String

    package init(seq: Int64, at: String, actor: String, action: String, subject: String,
                details: String, prevHash: String, hash: String) {
        self.seq = seq
        self.at = at
        self.actor = actor
        self.action = action
        self.subject = subject
        self.details = details
        self.prevHash = prevHash
        self.hash = hash
    }

    /// The hash this record should have, recomputed from its fields.
    package var expectedHash: String {
        AuditLog.hash(prevHash: prevHash, seq: seq, at: at, actor: actor, action: action,
                      subject: subject, details: details)
    }
}

/// The outcome of ``AuditLog/verify(_:)``.
package struct AuditVerification: Sendable, Hashable {
    /// Records that verified, from the first one on.
    package var verifiedCount: Int
    /// The hash of the last verified record (64 zeros when there is none): write it down
    /// outside the database to be able to detect a rewrite of the whole chain later.
    package var headHash: String
    /// The first problem found, or nil when the whole chain verifies.
    package var failure: AuditFailure?

    package var isValid: Bool { failure == nil }
}

/// The first record that does not verify, and why.
package struct AuditFailure: Sendable, Hashable, CustomStringConvertible {
    package enum Reason: Sendable, Hashable {
        /// The record's content does not hash to its stored hash (it was edited).
        case hashMismatch(stored: String, computed: String)
        /// The record's `prev_hash` is not the previous record's hash (records were removed,
        /// reordered or replaced).
        case brokenLink(expected: String, found: String)
        /// Sequence numbers jump: the records in between are missing.
        case gap(expected: Int64)
        /// The log ends before the last record ever appended: records were cut off the end.
        case truncated(headSeq: Int64, lastSeq: Int64)
        /// The log's end is not the record the head remembers: records were appended or the
        /// last one replaced without going through the append path.
        case headMismatch(headSeq: Int64, lastSeq: Int64)
        /// The head bookkeeping row is missing.
        case missingHead
    }

    /// The first record that does not verify (for a truncated log, the first missing one).
    package var seq: Int64
    package var reason: Reason

    package var description: String {
        switch reason {
        case let .hashMismatch(stored, computed):
            "record \(seq): content does not match its hash (stored \(stored.prefix(12))…, "
                + "computed \(computed.prefix(12))…): the record was altered"
        case let .brokenLink(expected, found):
            "record \(seq): previous hash \(found.prefix(12))… does not match the previous "
                + "record's hash \(expected.prefix(12))…: records were removed, reordered or replaced"
        case let .gap(expected):
            "record \(seq): expected record \(expected) here; records \(expected)…\(seq - 1) are missing"
        case let .truncated(headSeq, lastSeq):
            "record \(seq): the log ends at record \(lastSeq) but record \(headSeq) was the last "
                + "one appended: records were cut off the end"
        case let .headMismatch(headSeq, lastSeq):
            "record \(seq): the log's last record (\(lastSeq)) is not the last one appended "
                + "(\(headSeq)): records were added or replaced outside formulary"
        case .missingHead:
            "record \(seq): the audit head row is missing"
        }
    }
}
