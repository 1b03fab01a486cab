import FormularyStore
import CLibPQ

/// A connection to a PostgreSQL database through libpq, opened from a
/// `postgres://USER@HOST:PORT/NAME` (or `postgresql://…`) URL.
///
/// Every value reaches the server as a parameter of the extended protocol, never inside the
/// SQL text: ``execute(_:_:)`` prepares each distinct statement once per connection (by its
/// text and its parameters' types) and runs the prepared statement. ``executeScript(_:)`` runs
/// SQL without parameters, several statements at once (migrations, `BEGIN`, `SET`).
///
/// The connection speaks UTF-8, reads `bytea` as hex and swallows the server's notices (libpq
/// prints them on standard error otherwise, e.g. "relation … already exists, skipping").
/// Like ``Database``, a connection belongs to one thread at a time: it is not `Sendable`; open
/// one per thread instead.
package final class PostgresConnection {
    let handle: OpaquePointer
    /// libpq's functions, loaded at the process's first connection (``LibPQ``).
    let pq: formulary_pq
    /// The URL the connection was opened with, without its password: for messages.
    package let location: String
    /// Prepared statements by SQL text and parameter types.
    private var prepared: [PreparedKey: String] = [:]
    var savepointDepth = 0
    /// Cursors open in ``forEachRow(_:_:pageSize:_:)`` (each has a name of its own).
    var cursorDepth = 0
    /// Rows a writer holds back for COPY: sent before the next statement, dropped by a rollback.
    var pending: (any PostgresPendingWork)?

    private struct PreparedKey: Hashable {
        var sql: String
        var types: [UInt32]
    }

    /// Connects to the database `url` names. The password, if any, comes from the URL, from
    /// `PGPASSWORD` or from `~/.pgpass`, as libpq reads them; it is never part of an error
    /// or of ``location``.
    package init(url: String) throws(PostgresError) {
        let shown = StoreLocation.redacted(url)
        guard StoreLocation.isServerURL(url) else {
            throw PostgresError(kind: .misuse,
                                message: "\(shown) is not a PostgreSQL URL: use postgres://USER@HOST:PORT/NAME")
        }
        let pq = try LibPQ.functions().pointee
        guard let handle = pq.PQconnectdb(url) else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard pq.PQstatus(handle) == CONNECTION_OK else {
            let message = Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? "")
            pq.PQfinish(handle)
            throw PostgresError(kind: .connection, sqlState: Self.connectionSQLState(message),
                                message: "cannot connect to \(shown): \(message)")
        }
        self.handle = handle
        self.pq = pq
        self.location = shown
        // Notices are the server's remarks (NOTICE, WARNING…); a command's output is ours.
        _ = pq.PQsetNoticeProcessor(handle, { _, _ in }, nil)
        guard pq.PQsetClientEncoding(handle, "UTF8") == 0 else {
            pq.PQfinish(handle)
            throw PostgresError(kind: .connection, message: "the server \(shown) refused the UTF8 client encoding")
        }
        do {
            try executeScript("SET bytea_output = 'hex'")
        } catch {
            pq.PQfinish(handle)
            throw error
        }
    }

    deinit { pq.PQfinish(handle) }


    /// The SQLSTATE of a failed connection attempt, read from libpq's message (libpq gives
    /// no code before a connection exists): `28P01` the password was refused or missing,
    /// `28000` the role may not log in (unknown role, no `pg_hba.conf` entry), `3D000` no such
    /// database, `53300` too many connections, `57P03` the server is starting or stopping,
    /// and `08001` (the server could not be reached) for anything else.
    static func connectionSQLState(_ message: String) -> String {
        let text = message.lowercased()
        if text.contains("password authentication failed") || text.contains("no password supplied")
            || text.contains("authentication failed") {
            return "28P01"
        }
        if text.contains("role \"") && text.contains("does not exist") || text.contains("pg_hba.conf") {
            return "28000"
        }
        if text.contains("database \"") && text.contains("does not exist") { return "3D000" }
        if text.contains("too many clients") || text.contains("connection slots are reserved")
            || text.contains("too many connections") {
            return "53300"
        }
        if text.contains("the database system is starting up") || text.contains("the database system is shutting down")
            || text.contains("the database system is in recovery mode") {
            return "57P03"
        }
        return "08001"
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let last = scalars.last, last == "\n" || last == " " { scalars.removeLast() }
        return String(scalars)
    }

    // MARK: Statements

    /// Runs one statement with `arguments` bound to `$1`, `$2`…, prepared once per connection
    /// (by its text and the types of the values), and returns its rows.
    ///
    /// A NULL argument carries no type: the server infers it from the statement, so write
    /// `$1::text IS NULL` where nothing else says what `$1` is. With `binaryResults`, the
    /// rows come in binary format (integers, reals, booleans, text and `bytea` read alike;
    /// `numeric` does not).
    @discardableResult
    package func execute(_ sql: String, _ arguments: [PostgresValue] = [],
                        binaryResults: Bool = false) throws(PostgresError) -> PostgresResult {
        try flushPending()
        let parameters = try Parameters(arguments, sql: sql)
        let key = PreparedKey(sql: sql, types: parameters.types)
        let name: String
        if let known = prepared[key] {
            name = known
        } else {
            name = "formulary_\(prepared.count + 1)"
            let result = pq.PQprepare(handle, name, sql, Int32(parameters.count), parameters.types)
            _ = try check(result, sql: sql)
            prepared[key] = name
        }
        let result = parameters.withPointers { values, lengths, formats in
            pq.PQexecPrepared(handle, name, Int32(parameters.count), values, lengths, formats, binaryResults ? 1 : 0)
        }
        return try check(result, sql: sql, binary: binaryResults)
    }

    /// Runs one statement with `arguments` without preparing it for later (`PQexecParams`):
    /// for statements that run once.
    @discardableResult
    package func executeOnce(_ sql: String, _ arguments: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        try flushPending()
        let parameters = try Parameters(arguments, sql: sql)
        let result = parameters.withPointers { values, lengths, formats in
            pq.PQexecParams(handle, sql, Int32(parameters.count), parameters.types, values, lengths, formats, 0)
        }
        return try check(result, sql: sql)
    }

    /// Runs every statement of `script` in order (simple protocol, no parameters, not
    /// prepared): migrations, `BEGIN`, `SET`. Outside a transaction the statements of one
    /// script commit together (the server runs a multi-statement string as one transaction).
    package func executeScript(_ script: String) throws(PostgresError) {
        try flushPending()
        _ = try check(pq.PQexec(handle, script), sql: Self.firstLine(script))
    }

    /// Sends the rows a writer holds back (once: the work is taken off the connection first).
    func flushPending() throws(PostgresError) {
        guard let work = pending else { return }
        pending = nil
        do {
            try work.flush(self)
        } catch let error as PostgresError {
            throw error
        } catch {
            throw PostgresError(kind: .misuse, message: "\(error)")
        }
    }

    /// Checks a result: returns it when the statement succeeded, throws (and releases it)
    /// when it failed.
    private func check(_ result: OpaquePointer?, sql: String, binary: Bool = false) throws(PostgresError) -> PostgresResult {
        guard let result else {
            throw PostgresError(kind: pq.PQstatus(handle) == CONNECTION_OK ? .server : .connection,
                                message: Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? "no result"),
                                sql: sql)
        }
        let status = pq.PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY {
            return PostgresResult(handle: result, pq: pq, sql: sql, binary: binary)
        }
        defer { pq.PQclear(result) }
        if status == PGRES_COPY_IN || status == PGRES_COPY_OUT || status == PGRES_COPY_BOTH {
            throw PostgresError(kind: .misuse, message: "COPY is not run through execute", sql: sql)
        }
        func field(_ code: Character) -> String? {
            pq.PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        let sqlState = field("C")
        let message = field("M") ?? Self.trimmed(pq.PQresultErrorMessage(result).map { String(cString: $0) } ?? "")
        // Every error the server reports carries an SQLSTATE; one without is libpq's own. The
        // connection's status can still read OK right after the server went away mid-statement
        // ("server closed the connection unexpectedly"), so a missing SQLSTATE counts as lost.
        let lost = pq.PQstatus(handle) != CONNECTION_OK || sqlState == nil
        throw PostgresError(kind: lost ? .connection : .server, sqlState: sqlState,
                            message: message.isEmpty ? "the statement failed" : message, sql: sql)
    }

    static func firstLine(_ script: String) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingPrefix(while: { $0 == " " }) }
            .filter { !$0.isEmpty && !$0.hasPrefix("--") }
        guard let first = lines.first else { return "" }
        return lines.count > 1 ? first + " …" : String(first)
    }

    // MARK: Convenience reads

    /// The first column of the first row as an integer, nil without a row or for NULL.
    package func scalarInt64(_ sql: String, _ arguments: [PostgresValue] = []) throws(PostgresError) -> Int64? {
        let result = try execute(sql, arguments)
        guard let row = result.first else { return nil }
        return try row.optionalInt64(0)
    }

    /// The first column of the first row as text, nil without a row or for NULL.
    package func scalarString(_ sql: String, _ arguments: [PostgresValue] = []) throws(PostgresError) -> String? {
        let result = try execute(sql, arguments)
        guard let row = result.first else { return nil }
        return try row.optionalString(0)
    }

    /// True while a transaction is open, also one a failed statement aborted.
    package var isInTransaction: Bool {
        let status = pq.PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// True while a statement of the open transaction failed: it can only be rolled back.
    package var isTransactionAborted: Bool { pq.PQtransactionStatus(handle) == PQTRANS_INERROR }

    /// True while the connection to the server is up (as libpq last saw it).
    package var isConnected: Bool { pq.PQstatus(handle) == CONNECTION_OK }
}

/// The values of one statement in the form libpq takes them: type OIDs, C strings (text
/// format) or bytes (binary, for `bytea`), lengths and formats.
private struct Parameters: ~Copyable {
    var types: [UInt32] = []
    var buffers: [UnsafeMutablePointer<CChar>?] = []
    var lengths: [Int32] = []
    var formats: [Int32] = []
    var count: Int { types.count }

    init(_ values: [PostgresValue], sql: String) throws(PostgresError) {
        // PostgreSQL text cannot hold NUL, and a C string would end there silently. Checked
        // before anything is allocated. 22021 (character_not_in_repertoire) is what the
        // server itself answers for a NUL in text.
        for (offset, value) in values.enumerated() {
            if case .text(let text) = value, text.utf8.contains(0) {
                throw PostgresError(kind: .misuse, sqlState: PostgresError.nulInText,
                                    message: "parameter $\(offset + 1) is text with a NUL character, which PostgreSQL cannot store",
                                    sql: sql)
            }
        }
        for value in values {
            switch value {
            case .null:
                append(type: 0, bytes: nil, binary: false)
            case .integer(let number):
                append(type: PostgresType.int8, bytes: Array(String(number).utf8), binary: false)
            case .real(let number):
                let text = number.isNaN ? "NaN" : number == .infinity ? "Infinity"
                    : number == -.infinity ? "-Infinity" : "\(number)"
                append(type: PostgresType.float8, bytes: Array(text.utf8), binary: false)
            case .bool(let flag):
                append(type: PostgresType.bool, bytes: [flag ? UInt8(ascii: "t") : UInt8(ascii: "f")], binary: false)
            case .text(let text):
                append(type: PostgresType.text, bytes: Array(text.utf8), binary: false)
            case .bytes(let bytes):
                append(type: PostgresType.bytea, bytes: bytes, binary: true)
            }
        }
    }

    private mutating func append(type: UInt32, bytes: [UInt8]?, binary: Bool) {
        types.append(type)
        formats.append(binary ? 1 : 0)
        guard let bytes else {
            buffers.append(nil)
            lengths.append(0)
            return
        }
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        bytes.withUnsafeBufferPointer { source in
            source.withMemoryRebound(to: CChar.self) { buffer.update(from: $0.baseAddress!, count: bytes.count) }
        }
        buffer[bytes.count] = 0
        buffers.append(buffer)
        lengths.append(Int32(bytes.count))
    }

    deinit { for buffer in buffers { buffer?.deallocate() } }

    func withPointers<R>(_ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
                                  UnsafePointer<Int32>?) -> R) -> R {
        let values = buffers.map { UnsafePointer($0) }
        return values.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                }
            }
        }
    }
}
