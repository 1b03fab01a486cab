import Foundation
import FormularyJSON

/// The append-only, hash-chained audit log (table `audit_log`).
///
/// Each record's hash is the SHA-256 of the previous record's hash and the record's canonical
/// encoding (see ``canonicalEncoding(prevHash:seq:at:actor:action:subject:details:)`` and
/// docs/storage.md), so editing, removing, reordering or cutting off records shows in
/// ``verify(_:)``. UPDATE and DELETE are refused by triggers.
package enum AuditLog {
    /// The `prev_hash` of the first record.
    package static let genesisHash = String(repeating: "0", count: 64)

    /// Version tag that starts every encoding, so that a future format can never be confused.
    static let encodingTag = "formulary-audit-v1\n"

    /// Appends a record inside the caller's transaction (or in a transaction of its own when
    /// there is none), so that the record commits or rolls back with the change it describes.
    ///
    /// `details` are written as canonical JSON (members sorted by key). They must never carry
    /// the values of secure fields.
    @discardableResult
    package static func append(_ backend: any StoreBackend, actor: String, action: String, subject: String,
                              details: JSONValue = .object([:]), at date: Date = Date()) throws -> AuditRecord {
        let detailsText = details.serialized(sortedKeys: true)
        return try backend.transaction(.write) {
            guard let (headSeq, headHash) = try backend.auditHead() else {
                throw StoreError.corrupt("the audit head is missing")
            }
            let seq = headSeq + 1
            let at = Timestamp.string(from: date)
            let hash = Self.hash(prevHash: headHash, seq: seq, at: at, actor: actor, action: action,
                                 subject: subject, details: detailsText)
            let record = AuditRecord(seq: seq, at: at, actor: actor, action: action, subject: subject,
                                     details: detailsText, prevHash: headHash, hash: hash)
            try backend.insertAuditRecord(record)
            return record
        }
    }

    /// ``append(_:actor:action:subject:details:at:)`` on a connection (tests).
    @discardableResult
    static func append(_ db: Database, actor: String, action: String, subject: String,
                       details: JSONValue = .object([:]), at date: Date = Date()) throws -> AuditRecord {
        try append(SQLiteBackend(database: db), actor: actor, action: action, subject: subject,
                   details: details, at: date)
    }

    /// The bytes that are hashed for a record:
    /// `"formulary-audit-v1\n"` followed by the netstrings (`<byte count>:<bytes>,`) of
    /// prev_hash, seq in decimal, at, actor, action, subject and details, in that order.
    package static func canonicalEncoding(prevHash: String, seq: Int64, at: String, actor: String,
                                         action: String, subject: String, details: String) -> [UInt8] {
        var out = Array(encodingTag.utf8)
        for field in [prevHash, String(seq), at, actor, action, subject, details] {
            let bytes = Array(field.utf8)
            out.append(contentsOf: String(bytes.count).utf8)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: ","))
        }
        return out
    }

    /// SHA-256 hex of the canonical encoding.
    package static func hash(prevHash: String, seq: Int64, at: String, actor: String,
                            action: String, subject: String, details: String) -> String {
        SHA256.hex(canonicalEncoding(prevHash: prevHash, seq: seq, at: at, actor: actor,
                                     action: action, subject: subject, details: details))
    }

    /// Records in order, optionally only those at or after `since` (a date `YYYY-MM-DD` or a
    /// timestamp, compared as text, which orders ISO 8601 UTC correctly) and by one actor.
    static func records(_ db: Database, since: String? = nil, actor: String? = nil,
                        limit: Int? = nil) throws -> [AuditRecord] {
        try SQLiteBackend(database: db).auditRecords(since: since, actor: actor, limit: limit)
    }

    /// Recomputes the chain from the first record and reports the first record that does not
    /// verify. Runs in one read transaction, so appends made meanwhile are not half-seen.
    package static func verify(_ backend: any StoreBackend) throws -> AuditVerification {
        try backend.transaction(.read) {
            var verified = 0
            var previousHash = genesisHash
            var expectedSeq: Int64 = 1
            var failure: AuditFailure?
            try backend.forEachAuditRecord { record in
                guard failure == nil else { return }
                if record.seq != expectedSeq {
                    failure = AuditFailure(seq: record.seq, reason: .gap(expected: expectedSeq))
                } else if record.prevHash != previousHash {
                    failure = AuditFailure(seq: record.seq,
                                           reason: .brokenLink(expected: previousHash, found: record.prevHash))
                } else {
                    let computed = record.expectedHash
                    if computed != record.hash {
                        failure = AuditFailure(seq: record.seq,
                                               reason: .hashMismatch(stored: record.hash, computed: computed))
                    } else {
                        verified += 1
                        previousHash = record.hash
                        expectedSeq += 1
                    }
                }
            }
            if failure == nil {
                let lastSeq = expectedSeq - 1
                if let (headSeq, headHash) = try backend.auditHead() {
                    if headSeq > lastSeq {
                        failure = AuditFailure(seq: lastSeq + 1,
                                               reason: .truncated(headSeq: headSeq, lastSeq: lastSeq))
                    } else if headSeq < lastSeq {
                        failure = AuditFailure(seq: headSeq + 1,
                                               reason: .headMismatch(headSeq: headSeq, lastSeq: lastSeq))
                    } else if headHash != previousHash {
                        failure = AuditFailure(seq: lastSeq,
                                               reason: .headMismatch(headSeq: headSeq, lastSeq: lastSeq))
                    }
                } else {
                    failure = AuditFailure(seq: lastSeq + 1, reason: .missingHead)
                }
            }
            return AuditVerification(verifiedCount: verified, headHash: previousHash, failure: failure)
        }
    }

    /// ``verify(_:)`` on a connection (tests).
    static func verify(_ db: Database) throws -> AuditVerification {
        try verify(SQLiteBackend(database: db))
    }
}
