import CSQLite
import Foundation
import FormularyJSON
import Testing
@testable import FormularyStore

struct AuditLogTests {
    let folder = TemporaryDirectory()

    /// A log of five records, and the connection that wrote it.
    func fiveRecords(_ name: String = "audit.db") throws -> Database {
        let db = try migratedDatabase(folder.path(name))
        for index in 1...5 {
            _ = try db.transaction {
                try AuditLog.append(db, actor: "alice", action: "types.add", subject: "subject-MARKER-\(index)",
                                    details: ["name": "zip", "index": .integer(index)])
            }
        }
        #expect(try AuditLog.verify(db).isValid)
        return db
    }

    /// Tampering needs the triggers out of the way, as someone editing the file would have.
    func dropGuards(_ db: Database) throws {
        try db.executeScript("DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete")
    }

    @Test func appendsAChain() throws {
        let db = try fiveRecords()
        let records = try AuditLog.records(db)
        #expect(records.map(\.seq) == [1, 2, 3, 4, 5])
        #expect(records[0].prevHash == AuditLog.genesisHash)
        for (previous, next) in zip(records, records.dropFirst()) { #expect(next.prevHash == previous.hash) }
        #expect(records.allSatisfy { $0.hash == $0.expectedHash })
        // Details are canonical: members sorted by key, no whitespace.
        #expect(records[0].details == #"{"index":1,"name":"zip"}"#)
        #expect(records[0].at.hasSuffix("Z") && records[0].at.count == 24)
        let verification = try AuditLog.verify(db)
        #expect(verification.verifiedCount == 5 && verification.headHash == records[4].hash)
    }

    @Test func hashFollowsTheDocumentedEncoding() {
        let zeros = AuditLog.genesisHash
        let text = "formulary-audit-v1\n64:\(zeros),1:7,24:2026-11-29T15:39:27.123Z,5:alice,9:types.add,"
            + "3:zip,2:{},"
        let encoded = AuditLog.canonicalEncoding(prevHash: zeros, seq: 7, at: "2026-11-29T15:39:27.123Z",
                                                 actor: "alice", action: "types.add", subject: "zip", details: "{}")
        #expect(encoded == Array(text.utf8))
        #expect(AuditLog.hash(prevHash: zeros, seq: 7, at: "2026-11-29T15:39:27.123Z", actor: "alice",
                              action: "types.add", subject: "zip", details: "{}") == SHA256.hex(text))
        // Length prefixes keep field boundaries unambiguous.
        #expect(AuditLog.canonicalEncoding(prevHash: zeros, seq: 1, at: "t", actor: "ab", action: "c",
                                           subject: "", details: "{}")
                != AuditLog.canonicalEncoding(prevHash: zeros, seq: 1, at: "t", actor: "a", action: "bc",
                                              subject: "", details: "{}"))
    }

    @Test func triggersRefuseUpdateAndDelete() throws {
        let db = try fiveRecords()
        let update = try #require(throws: DatabaseError.self) {
            try db.execute("UPDATE audit_log SET actor = 'mallory' WHERE seq = 2")
        }
        #expect(update.isConstraintViolation && update.message.contains("append-only"))
        let delete = try #require(throws: DatabaseError.self) { try db.execute("DELETE FROM audit_log WHERE seq = 5") }
        #expect(delete.message.contains("append-only"))
        #expect(try AuditLog.verify(db).isValid)
    }

    @Test func appendRollsBackWithItsTransaction() throws {
        let db = try fiveRecords()
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try AuditLog.append(db, actor: "bob", action: "entries.import", subject: "signup")
                throw Boom()
            }
        }
        #expect(try AuditLog.records(db).count == 5)
        let next = try AuditLog.append(db, actor: "bob", action: "entries.import", subject: "signup")
        #expect(next.seq == 6)
        #expect(try AuditLog.verify(db).verifiedCount == 6)
    }

    @Test func filtersBySinceAndActor() throws {
        let db = try migratedDatabase(folder.path("filter.db"))
        let day: TimeInterval = 86_400
        let base = Date(timeIntervalSince1970: 1_795_000_000) // 2026-11-18
        try AuditLog.append(db, actor: "alice", action: "a", subject: "1", at: base)
        try AuditLog.append(db, actor: "bob", action: "a", subject: "2", at: base + 2 * day)
        try AuditLog.append(db, actor: "alice", action: "a", subject: "3", at: base + 4 * day)
        #expect(try AuditLog.records(db, actor: "alice").map(\.subject) == ["1", "3"])
        let since = String(Timestamp.string(from: base + day).prefix(10))
        #expect(try AuditLog.records(db, since: since).map(\.subject) == ["2", "3"])
        #expect(try AuditLog.records(db, since: since, actor: "alice").map(\.subject) == ["3"])
    }

    // MARK: Tampering: every case is detected and the first bad record named.

    @Test func detectsAChangedField() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        try db.execute("UPDATE audit_log SET actor = 'alicf' WHERE seq = 3")
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure.seq == 3)
        guard case .hashMismatch = failure.reason else { Issue.record("\(failure)"); return }
        #expect(try AuditLog.verify(db).verifiedCount == 2)
    }

    @Test func detectsADeletedRecord() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        try db.execute("DELETE FROM audit_log WHERE seq = 3")
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure == AuditFailure(seq: 4, reason: .gap(expected: 3)))
    }

    @Test func detectsADeletedRecordWithRenumbering() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        try db.executeScript("DELETE FROM audit_log WHERE seq = 3; UPDATE audit_log SET seq = seq - 1 WHERE seq > 3")
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure.seq == 3)
        guard case .brokenLink = failure.reason else { Issue.record("\(failure)"); return }
    }

    @Test func detectsTwoSwappedRecords() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        // Swap everything but the sequence numbers of records 2 and 4.
        try db.executeScript("""
            UPDATE audit_log SET seq = -2 WHERE seq = 2;
            UPDATE audit_log SET seq = 2 WHERE seq = 4;
            UPDATE audit_log SET seq = 4 WHERE seq = -2;
            """)
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure.seq == 2)
        guard case .brokenLink = failure.reason else { Issue.record("\(failure)"); return }
    }

    @Test func detectsSwappedContentsWithHashesKept() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        try db.executeScript("""
            UPDATE audit_log SET subject = (SELECT subject FROM audit_log WHERE seq = 4) WHERE seq = 2;
            UPDATE audit_log SET subject = 'subject-MARKER-2' WHERE seq = 4;
            """)
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure.seq == 2)
        guard case .hashMismatch = failure.reason else { Issue.record("\(failure)"); return }
    }

    @Test func detectsATruncatedTail() throws {
        let db = try fiveRecords()
        try dropGuards(db)
        try db.execute("DELETE FROM audit_log WHERE seq > 3")
        let verification = try AuditLog.verify(db)
        #expect(verification.verifiedCount == 3)
        #expect(verification.failure == AuditFailure(seq: 4, reason: .truncated(headSeq: 5, lastSeq: 3)))
        #expect("\(verification.failure!)".contains("cut off"))
    }

    @Test func detectsARecordAppendedBehindTheLogsBack() throws {
        let db = try fiveRecords()
        let last = try #require(try AuditLog.records(db).last)
        try db.executeScript("DROP TRIGGER audit_log_head")
        let hash = AuditLog.hash(prevHash: last.hash, seq: 6, at: last.at, actor: "mallory", action: "x",
                                 subject: "y", details: "{}")
        try db.execute("INSERT INTO audit_log VALUES (6, ?, 'mallory', 'x', 'y', '{}', ?, ?)",
                       [.text(last.at), .text(last.hash), .text(hash)])
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure == AuditFailure(seq: 6, reason: .headMismatch(headSeq: 5, lastSeq: 6)))
    }

    @Test func detectsAByteChangedInTheFile() throws {
        let path = folder.path("file.db")
        do { _ = try fiveRecords("file.db") } // closing the last connection checkpoints the WAL
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let marker = Array("subject-MARKER-4".utf8)
        let position = try #require(bytes.firstRange(of: Data(marker)))
        bytes[position.lowerBound + 8] ^= 0x20 // "MARKER" becomes "mARKER"
        try bytes.write(to: URL(fileURLWithPath: path))
        let db = try Database(path: path)
        let failure = try #require(try AuditLog.verify(db).failure)
        #expect(failure.seq == 4)
        guard case .hashMismatch = failure.reason else { Issue.record("\(failure)"); return }
    }
}
