/// An error reported by PostgreSQL (or by libpq on its way there), or by the wrapper.
///
/// It carries the SQLSTATE, the server's primary message and the SQL of the statement that
/// failed. Bound values are never part of it: entries may hold secure values and errors end up
/// on standard error and in logs. That is why the server's DETAIL is dropped (it quotes rows:
/// `Key (key)=(…) already exists`, `Failing row contains (…)`), and why the messages of data
/// exceptions (SQLSTATE class 22, which quote the offending input) have their quoted parts
/// replaced by `"…"`.
package struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the error came from.
    package enum Kind: Sendable, Equatable {
        /// No connection could be made, or it was lost (server stopped, network gone).
        case connection
        /// The server refused a statement (see ``PostgresError/sqlState``).
        case server
        /// The wrapper was used wrongly: a transaction inside a transaction, a column read as
        /// the wrong type, an unsupported URL.
        case misuse
        /// The PostgreSQL client library (libpq), which `formulary` opens at the first
        /// connection, could not be loaded: not installed, or not the version expected.
        case clientLibrary
    }

    /// Where the error came from.
    package var kind: Kind
    /// The five-character SQLSTATE (`23505`, `40P01`…), when the server gave one.
    package var sqlState: String?
    /// The server's or libpq's message, without values.
    package var message: String
    /// The SQL of the failing statement, with its `$1` placeholders: never the bound values.
    package var sql: String?

    /// An error of `kind` with the given parts.
    package init(kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = kind == .server && sqlState?.hasPrefix("22") == true
            ? Self.maskingQuotes(message) : message
        self.sql = sql
    }

    /// The SQLSTATE of text holding a NUL character, which PostgreSQL cannot store
    /// (`character_not_in_repertoire`, 22021): refused before it is sent.
    package static let nulInText = "22021"

    /// Text to store held a NUL character (SQLite stores it; PostgreSQL cannot).
    package var isNulInText: Bool { sqlState == Self.nulInText }

    /// `unique_violation` (23505).
    package var isUniqueViolation: Bool { sqlState == "23505" }
    /// Any integrity constraint violation (class 23) or an exception raised by a trigger
    /// (P0001), which is how the schema refuses changes to the audit log.
    package var isConstraintViolation: Bool {
        sqlState?.hasPrefix("23") == true || sqlState == "P0001"
    }
    /// A serialization failure (40001) or a deadlock (40P01): the transaction may be retried.
    package var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }
    /// The connection failed or was lost (libpq's own failure, or SQLSTATE class 08 / 57P0x,
    /// the server shutting down).
    package var isConnectionFailure: Bool {
        kind == .connection || sqlState?.hasPrefix("08") == true || sqlState?.hasPrefix("57P0") == true
    }

    /// A human description: `PostgreSQL error 23505: duplicate key value violates … — while
    /// executing `INSERT …``.
    package var description: String {
        var text: String
        switch kind {
        case .connection: text = "PostgreSQL connection error"
        case .server: text = "PostgreSQL error"
        case .misuse: text = "PostgreSQL client error"
        case .clientLibrary: text = "PostgreSQL client library error"
        }
        if let sqlState { text += " \(sqlState)" }
        text += ": \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }

    /// `invalid input syntax for type bigint: "4111…"` → `… bigint: "…"`.
    static func maskingQuotes(_ message: String) -> String {
        var result = ""
        var inQuote = false
        for character in message {
            if character == "\"" {
                result.append(inQuote ? "…\"" : "\"")
                inQuote.toggle()
            } else if !inQuote {
                result.append(character)
            }
        }
        if inQuote { result += "…" }
        return result
    }
}
