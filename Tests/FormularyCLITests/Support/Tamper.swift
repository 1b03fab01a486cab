import Foundation

/// Changes to a database file made the way an attacker with write access would, in Python
/// (its `sqlite3` and `hashlib`): an independent implementation of the audit chain's
/// encoding as docs/storage.md gives it, so the tests also hold the documentation to the code.
enum Tamper {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `body` (Python, with `db` an open connection in a transaction, and `sha256(text)`,
    /// `record_hash(prev, seq, at, actor, action, subject, details)` and `drop_trigger(name)`,
    /// which returns the trigger's SQL to create it again, defined), then commits.
    static func python(_ databasePath: String, _ body: String) throws {
        let script = """
            import hashlib, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            def sha256(text):
                return hashlib.sha256(text.encode()).hexdigest()
            def record_hash(prev, seq, at, actor, action, subject, details):
                out = b"formulary-audit-v1\\n"
                for field in [prev, str(seq), at, actor, action, subject, details]:
                    data = field.encode()
                    out += str(len(data)).encode() + b":" + data + b","
                return hashlib.sha256(out).hexdigest()
            def drop_trigger(name):
                text = db.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (name,)).fetchone()[0]
                db.execute("DROP TRIGGER " + name)
                return text
            \(body)
            db.execute("COMMIT")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, databasePath]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// Rewrites every record's hash from the first one on, after `edit` (Python statements
    /// that may change `actor`, `details`… of record `seq`), so that the chain is consistent
    /// again: what only a head kept elsewhere can catch.
    static func rewriteChain(_ databasePath: String, edit: String) throws {
        try python(databasePath, """
            prev = "0" * 64
            rows = db.execute("SELECT seq, at, actor, action, subject, details FROM audit_log ORDER BY seq").fetchall()
            def rewrite():
                global prev
                for seq, at, actor, action, subject, details in rows:
                    \(edit)
                    h = record_hash(prev, seq, at, actor, action, subject, details)
                    db.execute("UPDATE audit_log SET actor = ?, details = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                               (actor, details, prev, h, seq))
                    prev = h
                db.execute("UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1", (rows[-1][0], prev))
            guard = drop_trigger("audit_log_no_update")
            rewrite()
            db.execute(guard)
            """)
    }

    /// Python that cuts the records from `seq` on off the end of the log and rewinds the head
    /// to the record before, its guards dropped for it and created again from their own SQL:
    /// the chain and the schema verify afterwards.
    static func cutLog(from seq: Int) -> String {
        """
        no_delete = drop_trigger("audit_log_no_delete")
        follows = drop_trigger("audit_head_follows_log")
        db.execute("DELETE FROM audit_log WHERE seq >= \(seq)")
        db.execute("UPDATE audit_head SET seq = \(seq - 1), hash = (SELECT hash FROM audit_log WHERE seq = \(seq - 1))")
        db.execute(no_delete)
        db.execute(follows)
        """
    }
}
