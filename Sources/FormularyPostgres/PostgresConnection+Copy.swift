import FormularyStore
import CLibPQ

/// Work a writer holds back on a connection (rows for COPY): sent before the connection's next
/// statement, so that every statement — a read, `COMMIT` — sees it; dropped by a rollback.
protocol PostgresPendingWork: AnyObject {
    /// Sends what is held back.
    func flush(_ connection: PostgresConnection) throws
    /// Forgets what is held back (its transaction was rolled back).
    func discard()
}

extension PostgresConnection {
    /// Runs `COPY … FROM STDIN` with `data` as its input, in the format the statement names.
    ///
    /// The rows travel as one stream (`PQputCopyData`), not as one statement each: the way to
    /// load many rows. A failure (a constraint, a malformed row) fails the whole COPY.
    func copyIn(_ sql: String, data: [UInt8]) throws(PostgresError) {
        try flushPending()
        guard let start = pq.PQexec(handle, sql) else {
            throw PostgresError(kind: .connection, message: Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? ""),
                                sql: sql)
        }
        let status = pq.PQresultStatus(start)
        guard status == PGRES_COPY_IN else {
            // An error before any data (a missing table): the result says why.
            _ = try checkCopyResult(start, sql: sql)
            throw PostgresError(kind: .misuse, message: "the statement is not a COPY FROM STDIN", sql: sql)
        }
        pq.PQclear(start)
        var sent = true
        var offset = 0
        let chunk = 1 << 20
        data.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { bytes in
                while sent && offset < bytes.count {
                    let count = min(chunk, bytes.count - offset)
                    sent = pq.PQputCopyData(handle, bytes.baseAddress! + offset, Int32(count)) == 1
                    offset += count
                }
            }
        }
        let ended = pq.PQputCopyEnd(handle, sent ? nil : "formulary could not send the rows") == 1
        // The COPY's own result, then nil; all of them must be read for the connection to be
        // usable again.
        var failure: PostgresError?
        while let result = pq.PQgetResult(handle) {
            do { _ = try checkCopyResult(result, sql: sql) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        guard sent, ended else {
            throw PostgresError(kind: .connection, message: Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? ""),
                                sql: sql)
        }
    }

    private func checkCopyResult(_ result: OpaquePointer, sql: String) throws(PostgresError) -> Bool {
        defer { pq.PQclear(result) }
        let status = pq.PQresultStatus(result)
        if status == PGRES_COMMAND_OK { return true }
        let code = pq.PQresultErrorField(result, Int32(Character("C").asciiValue!)).map { String(cString: $0) }
        let message = pq.PQresultErrorField(result, Int32(Character("M").asciiValue!)).map { String(cString: $0) }
        throw PostgresError(kind: pq.PQstatus(handle) == CONNECTION_OK ? .server : .connection, sqlState: code,
                            message: message ?? "COPY failed", sql: sql)
    }
}

/// The binary COPY format (`COPY … FROM STDIN (FORMAT binary)`): a header, then per row a
/// field count and each field as a length and its bytes in the type's binary form.
struct PostgresBinaryCopy {
    private(set) var bytes: [UInt8] = Array("PGCOPY\n".utf8) + [0xff, 0x0d, 0x0a, 0x00] + [0, 0, 0, 0] + [0, 0, 0, 0]
    /// Rows added so far.
    private(set) var rows = 0
    private static let headerCount = 19

    var isEmpty: Bool { rows == 0 }

    mutating func beginRow(fields: Int16) {
        append(UInt16(bitPattern: fields))
        rows += 1
    }

    /// A `bigint` field.
    mutating func int8(_ value: Int64) {
        append(UInt32(8))
        append(UInt64(bitPattern: value))
    }

    /// A `bytea` field.
    mutating func bytea(_ value: UnsafeRawBufferPointer) {
        append(UInt32(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `text` field: its UTF-8 bytes, as the binary format has them.
    mutating func text(_ value: UnsafeRawBufferPointer) {
        bytea(value)
    }

    /// A `boolean` field.
    mutating func bool(_ value: Bool) {
        append(UInt32(1))
        bytes.append(value ? 1 : 0)
    }

    /// A NULL field.
    mutating func null() { append(UInt32(bitPattern: -1)) }

    /// The stream with its trailer.
    func finished() -> [UInt8] { bytes + [0xff, 0xff] }

    mutating func reset() {
        bytes.removeSubrange(Self.headerCount...)
        rows = 0
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension PostgresConnection {
    /// Runs `COPY (…) TO STDOUT (FORMAT binary)` and calls `body` with each row's fields as
    /// byte buffers (nil for NULL), straight from libpq's buffer: valid only during the call.
    ///
    /// The rows stream without a round trip per page; the fastest way to read many rows. COPY
    /// takes no parameters: `sql` must hold no value that came from outside (the caller writes
    /// integers into it).
    func copyOut(_ sql: String, _ body: ([UnsafeRawBufferPointer?]) throws -> Void) throws {
        try flushPending()
        guard let start = pq.PQexec(handle, sql) else {
            throw PostgresError(kind: .connection, message: Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? ""),
                                sql: sql)
        }
        guard pq.PQresultStatus(start) == PGRES_COPY_OUT else {
            _ = try checkCopyResult(start, sql: sql)
            throw PostgresError(kind: .misuse, message: "the statement is not a COPY TO STDOUT", sql: sql)
        }
        pq.PQclear(start)
        var headerSeen = false
        var fields: [UnsafeRawBufferPointer?] = []
        var failure: (any Error)?
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let count = pq.PQgetCopyData(handle, &buffer, 0)
            if count == -1 { break }      // the end of the rows
            guard count >= 0, let buffer else {
                failure = failure ?? PostgresError(kind: .connection,
                                                   message: Self.trimmed(pq.PQerrorMessage(handle).map { String(cString: $0) } ?? ""),
                                                   sql: sql)
                break
            }
            defer { pq.PQfreemem(buffer) }
            // After a failure in `body`, the rest is read and dropped: the connection must
            // reach the end of the COPY to be usable again.
            guard failure == nil else { continue }
            var message = UnsafeRawBufferPointer(start: buffer, count: Int(count))
            if !headerSeen {
                // "PGCOPY\n\377\r\n\0", flags, and the header extension's length and bytes.
                guard message.count >= 19 else { failure = Self.malformed(sql); continue }
                let extensionLength = Int(UInt32(bigEndian: message.loadUnaligned(fromByteOffset: 15, as: UInt32.self)))
                message = UnsafeRawBufferPointer(rebasing: message[(19 + extensionLength)...])
                headerSeen = true
            }
            guard message.count >= 2 else { failure = Self.malformed(sql); continue }
            let fieldCount = Int16(bigEndian: message.loadUnaligned(as: Int16.self))
            if fieldCount == -1 { continue }   // the trailer
            var offset = 2
            fields.removeAll(keepingCapacity: true)
            for _ in 0..<max(Int(fieldCount), 0) {
                guard offset + 4 <= message.count else { failure = Self.malformed(sql); break }
                let length = Int(Int32(bigEndian: message.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                offset += 4
                if length < 0 {
                    fields.append(nil)
                } else {
                    guard offset + length <= message.count else { failure = Self.malformed(sql); break }
                    fields.append(UnsafeRawBufferPointer(rebasing: message[offset..<(offset + length)]))
                    offset += length
                }
            }
            guard failure == nil else { continue }
            do { try body(fields) } catch { failure = error }
        }
        while let result = pq.PQgetResult(handle) {
            do { _ = try checkCopyResult(result, sql: sql) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
    }

    private static func malformed(_ sql: String) -> PostgresError {
        PostgresError(kind: .misuse, message: "the server's COPY rows are not in the binary format", sql: sql)
    }
}
