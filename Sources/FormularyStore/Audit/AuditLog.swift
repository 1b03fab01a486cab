import Foundation
import FormularyJSON

/// The append-only, hash-chained audit log (table `audit_log`).
///
/// Each record's hash is the SHA-256 of the previous record's hash and the record's canonical
/// encoding (see ``canonicalEncoding(prevHash:seq:at:actor:action:subject:details:)`` and
/// docs/storage.md), so editing, removing, reordering or cutting off records shows in
/// ``verify(_:)``. UPDATE and DELETE are refused by triggers.
public enum AuditLog {
    /// The `prev_hash` of the first record.
    public static let genesisHash = String(repeating: "0", count: 64)

    /// Version tag that starts every encoding, so that a future format can never be confused.
    static let encodingTag = "formulary-audit-v1\n"

    /// Appends a record inside the caller's transaction (or in a transaction of its own when
    /// there is none), so that the record commits or rolls back with the change it describes.
    ///
    /// `details` are written as canonical JSON (members sorted by key). They must never carry
    /// the values of secure fields.
    @discardableResult
    public static func append(_ db: Database, actor: String, action: String, subject: String,
                              details: JSONValue = .object([:]), at date: Date = Date()) throws -> AuditRecord {
        let detailsText = details.serialized(sortedKeys: true)
        return try db.transaction(.immediate) {
            let head = try db.cachedStatement("SELECT seq, hash FROM audit_head WHERE id = 1")
                .first { ($0.int64(0), $0.string(1)) }
            guard let (headSeq, headHash) = head else {
                throw DatabaseError(extendedCode: 1, message: "audit_head row is missing", sql: nil)
            }
            let seq = headSeq + 1
            let at = Timestamp.string(from: date)
            let hash = Self.hash(prevHash: headHash, seq: seq, at: at, actor: actor, action: action,
                                 subject: subject, details: detailsText)
            let record = AuditRecord(seq: seq, at: at, actor: actor, action: action, subject: subject,
                                     details: detailsText, prevHash: headHash, hash: hash)
            try db.execute("""
                INSERT INTO audit_log (seq, at, actor, action, subject, details, prev_hash, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.integer(seq), .text(at), .text(actor), .text(action), .text(subject),
                      .text(detailsText), .text(headHash), .text(hash)])
            return record
        }
    }

    /// The bytes that are hashed for a record:
    /// `"formulary-audit-v1\n"` followed by the netstrings (`<byte count>:<bytes>,`) of
    /// prev_hash, seq in decimal, at, actor, action, subject and details, in that order.
    public static func canonicalEncoding(prevHash: String, seq: Int64, at: String, actor: String,
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
    public static func hash(prevHash: String, seq: Int64, at: String, actor: String,
                            action: String, subject: String, details: String) -> String {
        SHA256.hex(canonicalEncoding(prevHash: prevHash, seq: seq, at: at, actor: actor,
                                     action: action, subject: subject, details: details))
    }

    /// Records in order, optionally only those at or after `since` (a date `YYYY-MM-DD` or a
    /// timestamp, compared as text, which orders ISO 8601 UTC correctly) and by one actor.
    public static func records(_ db: Database, since: String? = nil, actor: String? = nil,
                               limit: Int? = nil) throws -> [AuditRecord] {
        let statement = try db.cachedStatement("""
            SELECT seq, at, actor, action, subject, details, prev_hash, hash FROM audit_log
            WHERE (?1 IS NULL OR at >= ?1) AND (?2 IS NULL OR actor = ?2)
            ORDER BY seq LIMIT ?3
            """)
        try statement.bind([.text(since), .text(actor), .integer(Int64(limit ?? -1))])
        return try statement.map(record(from:))
    }

    static func record(from row: Row) -> AuditRecord {
        AuditRecord(seq: row.int64(0), at: row.string(1), actor: row.string(2), action: row.string(3),
                    subject: row.string(4), details: row.string(5), prevHash: row.string(6),
                    hash: row.string(7))
    }

    /// Recomputes the chain from the first record and reports the first record that does not
    /// verify. Runs in one read transaction, so appends made meanwhile are not half-seen.
    public static func verify(_ db: Database) throws -> AuditVerification {
        try db.transaction(.deferred) {
            var verified = 0
            var previousHash = genesisHash
            var expectedSeq: Int64 = 1
            var failure: AuditFailure?
            let statement = try db.cachedStatement("""
                SELECT seq, at, actor, action, subject, details, prev_hash, hash
                FROM audit_log ORDER BY seq
                """)
            defer { statement.reset() }
            while failure == nil, try statement.step() {
                let record = record(from: Row(handle: statement.handle))
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
                let head = try db.cachedStatement("SELECT seq, hash FROM audit_head WHERE id = 1")
                    .first { ($0.int64(0), $0.string(1)) }
                if let (headSeq, headHash) = head {
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
}
