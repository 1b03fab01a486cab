import FormularyStore

/// How an SQLite failure reads to the user: what happened, what the command kept, and what
/// to do, with SQLite's own words on the line after for whoever has to dig further.
/// ``Workspace/serviceError(for:command:)`` turns a `DatabaseError` into one.
struct DatabaseFailure {
    var error: DatabaseError
    /// The database file, as the user named it.
    var database: String
    /// The failing command's path (`["import"]`, `["types", "add"]`…).
    var command: [String]

    /// The line after `formulary: error: `.
    var message: String {
        let (what, todo) = explanation
        return "\(what); \(kept). \(todo)."
    }

    /// SQLite's code, message and statement (never bound values), on one line: a migration's
    /// statement loses its `--` comments and line breaks and is cut after 160 characters.
    var details: String {
        var technical = error
        technical.sql = error.sql.map(Self.oneLine)
        return "(\(technical))"
    }

    static func oneLine(_ sql: String) -> String {
        // Display only: a `--` inside a string literal would cut it short, which is harmless here.
        let code = sql.split(separator: "\n").map { line -> Substring in
            let dashes = zip(line.indices, line.dropFirst()).first { line[$0.0] == "-" && $0.1 == "-" }
            return dashes.map { line[..<$0.0] } ?? line
        }
        let words = code.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        let text = words.joined(separator: " ")
        return text.count > 160 ? text.prefix(159) + "…" : text
    }

    /// What the command left in the database. Every writing command but `validate` does its
    /// writes in one transaction (`init` and `migrate` included), so a failure rolls all of them back;
    /// `validate` commits batch by batch and marks an interrupted run incomplete.
    var kept: String { Self.kept(command: command) }

    /// What `command` left in the database when it failed, on either kind of database.
    static func kept(command: [String]) -> String {
        switch command.first {
        case "validate":
            "results committed before the failure are kept and an interrupted run is marked incomplete"
        case "demo":
            "the demo stopped"
        default:
            "nothing was written"
        }
    }

    private var explanation: (what: String, todo: String) {
        switch error.resultCode {
        case 13:   // SQLITE_FULL
            ("the disk holding \(database) is full (or the database reached its size limit)",
             "Free some space, then run the command again")
        case 10:   // SQLITE_IOERR
            ("an I/O error occurred on \(database): the disk or the file system failed a read or a write",
             "Check the disk and the file system (dmesg, df), then run the command again")
        case 5, 6: // SQLITE_BUSY, SQLITE_LOCKED
            ("\(database) is locked by another process, and it did not finish in time",
             "Run the command again when the other one has finished")
        case 8:    // SQLITE_READONLY
            ("\(database) cannot be written (a read-only file, folder or file system)",
             "Check the permissions of the file and its folder")
        case 14:   // SQLITE_CANTOPEN
            ("\(database) cannot be opened",
             "Check that its folder exists and that you may read and write there")
        case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
            ("\(database) is damaged or is not a Formulary database",
             "Restore it from a backup; sqlite3's 'PRAGMA integrity_check' tells what is wrong")
        case 7:    // SQLITE_NOMEM
            ("SQLite ran out of memory working on \(database)",
             "Close other programs or work on smaller files, then run the command again")
        default:
            ("database \(database) failed (SQLite error \(error.resultCode): \(error.message))",
             "Run the command again; if it fails the same way, report it with the line below")
        }
    }
}
