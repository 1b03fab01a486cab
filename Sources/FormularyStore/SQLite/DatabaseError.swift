import CSQLite

/// An error reported by SQLite, or by the store on top of it.
///
/// It carries the primary and extended result codes, SQLite's message and the SQL text of the
/// statement that failed. Bound values are never part of it: entries may hold secure values and
/// errors end up on standard error and in logs.
@usableFromInline package struct DatabaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`…), i.e. `extendedCode & 0xff`.
    package var resultCode: Int32 { extendedCode & 0xff }
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_IOERR_WRITE`…).
    package var extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), or the generic text of the code.
    package var message: String
    /// The SQL of the failing statement, with its `?` placeholders: never the bound values.
    package var sql: String?

    @usableFromInline package init(extendedCode: Int32, message: String? = nil, sql: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message ?? String(cString: sqlite3_errstr(extendedCode))
        self.sql = sql
    }

    /// Builds the error from the connection's last error, for a call that returned `code`.
    @usableFromInline
    init(code: Int32, connection: OpaquePointer?, sql: String?) {
        var extended = code
        var message: String?
        if let connection {
            let last = sqlite3_extended_errcode(connection)
            // The connection's last error only describes this failure when its primary code
            // agrees; an injected fault, for example, never reached SQLite.
            if last & 0xff == code & 0xff {
                extended = last
                message = String(cString: sqlite3_errmsg(connection))
            }
        }
        self.init(extendedCode: extended, message: message, sql: sql)
    }

    /// True for `SQLITE_BUSY` and `SQLITE_LOCKED`: another connection holds the lock.
    package var isBusy: Bool { resultCode == SQLITE_BUSY || resultCode == SQLITE_LOCKED }

    /// True for constraint violations (`UNIQUE`, `CHECK`, `FOREIGN KEY`, trigger `RAISE`…).
    package var isConstraintViolation: Bool { resultCode == SQLITE_CONSTRAINT }

    @usableFromInline package var description: String {
        var text = "SQLite error \(resultCode)"
        if extendedCode != resultCode { text += " (extended \(extendedCode))" }
        text += ": \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}
