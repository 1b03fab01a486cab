import FormularyStore
import CLibPQ

/// The rows a statement returned, owned until the result is released: in text format, or in
/// binary format when asked for (``PostgresConnection/execute(_:_:binaryResults:)``), which
/// saves parsing numbers and hex-decoding `bytea` on hot reads.
///
/// A collection of ``PostgresRow``; each row reads its columns by the column's type: asking a
/// `bigint` column for a string, or a `text` column for an integer, is an error naming the
/// column and its type, never its value.
package final class PostgresResult: RandomAccessCollection {
    let handle: OpaquePointer
    /// libpq's functions (its connection's).
    let pq: formulary_pq
    /// The SQL that produced the rows, for errors.
    let sql: String
    /// Whether the values are in binary format.
    let binary: Bool

    init(handle: OpaquePointer, pq: formulary_pq, sql: String, binary: Bool = false) {
        self.handle = handle
        self.pq = pq
        self.sql = sql
        self.binary = binary
    }

    deinit { pq.PQclear(handle) }

    /// The index of the first row (0).
    package var startIndex: Int { 0 }
    /// The number of rows.
    package var endIndex: Int { Int(pq.PQntuples(handle)) }
    /// The row at `position`.
    package subscript(position: Int) -> PostgresRow { PostgresRow(result: self, index: Int32(position)) }

    /// The number of columns.
    package var columnCount: Int { Int(pq.PQnfields(handle)) }

    /// The name of a column as the server gave it.
    package func columnName(_ column: Int) -> String {
        pq.PQfname(handle, Int32(column)).map { String(cString: $0) } ?? "?"
    }

    /// Rows an INSERT, UPDATE, DELETE (or COPY) changed, from the command tag.
    package var affectedRows: Int {
        guard let text = pq.PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The command tag (`INSERT 0 1`, `COMMIT`, `ROLLBACK`…).
    package var commandTag: String { pq.PQcmdStatus(handle).map { String(cString: $0) } ?? "" }

    func type(of column: Int32) -> UInt32 { pq.PQftype(handle, column) }
}

/// One row of a ``PostgresResult``. It keeps its result alive.
package struct PostgresRow {
    let result: PostgresResult
    let index: Int32

    /// The number of columns.
    package var columnCount: Int { result.columnCount }

    /// True when the column holds SQL NULL.
    package func isNull(_ column: Int) -> Bool { result.pq.PQgetisnull(result.handle, index, Int32(column)) == 1 }

    /// The column's text as sent by the server, or nil for NULL.
    private func raw(_ column: Int) -> UnsafeBufferPointer<UInt8>? {
        let c = Int32(column)
        guard column >= 0, column < columnCount else { return nil }
        guard result.pq.PQgetisnull(result.handle, index, c) == 0, let value = result.pq.PQgetvalue(result.handle, index, c) else {
            return nil
        }
        let count = Int(result.pq.PQgetlength(result.handle, index, c))
        return value.withMemoryRebound(to: UInt8.self, capacity: count) { UnsafeBufferPointer(start: $0, count: count) }
    }

    private func mismatch(_ column: Int, _ wanted: String) -> PostgresError {
        guard column >= 0, column < columnCount else {
            return PostgresError(kind: .misuse, message: "column \(column) does not exist (the row has \(columnCount))",
                                 sql: result.sql)
        }
        let why = isNull(column) ? "it is NULL" : "its type has OID \(result.type(of: Int32(column)))"
        return PostgresError(kind: .misuse,
                             message: "column \(column) (\(result.columnName(column))) read as \(wanted), but \(why)",
                             sql: result.sql)
    }

    /// The column as an integer (`smallint`, `integer`, `bigint`, `oid`, or an integral
    /// `numeric` such as `sum(bigint)`); NULL or another type is an error.
    package func int64(_ column: Int) throws(PostgresError) -> Int64 {
        guard let value = try optionalInt64(column) else { throw mismatch(column, "an integer") }
        return value
    }

    /// The column as an integer, nil for NULL.
    package func optionalInt64(_ column: Int) throws(PostgresError) -> Int64? {
        guard column >= 0, column < columnCount else { throw mismatch(column, "an integer") }
        guard let bytes = raw(column) else { return nil }
        let type = result.type(of: Int32(column))
        if result.binary {
            // Network byte order, as wide as the type.
            guard let value = Self.bigEndianInteger(bytes, type: type) else { throw mismatch(column, "an integer") }
            return value
        }
        guard PostgresType.integers.contains(type) || type == PostgresType.numeric,
              let value = Self.parseInt64(bytes) else { throw mismatch(column, "an integer") }
        return value
    }

    /// The column as an `Int`.
    package func int(_ column: Int) throws(PostgresError) -> Int { Int(try int64(column)) }

    /// The column as text (`text`, `varchar`, `char`, `name`); NULL or another type is an error.
    package func string(_ column: Int) throws(PostgresError) -> String {
        guard let value = try optionalString(column) else { throw mismatch(column, "text") }
        return value
    }

    /// The column as text, nil for NULL.
    package func optionalString(_ column: Int) throws(PostgresError) -> String? {
        guard column >= 0, column < columnCount else { throw mismatch(column, "text") }
        guard let bytes = raw(column) else { return nil }
        guard PostgresType.texts.contains(result.type(of: Int32(column))) else { throw mismatch(column, "text") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column as bytes (`bytea`); NULL or another type is an error.
    package func bytes(_ column: Int) throws(PostgresError) -> [UInt8] {
        guard let value = try optionalBytes(column) else { throw mismatch(column, "bytes") }
        return value
    }

    /// The column as bytes, nil for NULL.
    package func optionalBytes(_ column: Int) throws(PostgresError) -> [UInt8]? {
        guard column >= 0, column < columnCount else { throw mismatch(column, "bytes") }
        guard let text = raw(column) else { return nil }
        guard result.type(of: Int32(column)) == PostgresType.bytea else { throw mismatch(column, "bytes") }
        if result.binary { return Array(text) }
        guard let bytes = Self.decodeHexBytea(text) else { throw mismatch(column, "bytes") }
        return bytes
    }

    /// Calls `body` with a `bytea` column's bytes — in binary format without copying them
    /// (valid only during the call). NULL or another type is an error.
    package func withUnsafeBytes<R>(at column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard column >= 0, column < columnCount, let bytes = raw(column),
              result.type(of: Int32(column)) == PostgresType.bytea else { throw mismatch(column, "bytes") }
        if result.binary { return try body(UnsafeRawBufferPointer(bytes)) }
        guard let decoded = Self.decodeHexBytea(bytes) else { throw mismatch(column, "bytes") }
        return try decoded.withUnsafeBytes(body)
    }

    /// The column as a `boolean`; NULL or another type is an error.
    package func bool(_ column: Int) throws(PostgresError) -> Bool {
        guard column >= 0, column < columnCount, let text = raw(column),
              result.type(of: Int32(column)) == PostgresType.bool, text.count == 1 else {
            throw mismatch(column, "a boolean")
        }
        return result.binary ? text[0] != 0 : text[0] == UInt8(ascii: "t")
    }

    /// The column as a `double precision`, `real` or `numeric`; NULL or another type is an error.
    package func double(_ column: Int) throws(PostgresError) -> Double {
        if result.binary, column >= 0, column < columnCount, let bytes = raw(column) {
            switch (result.type(of: Int32(column)), bytes.count) {
            case (PostgresType.float8, 8):
                return Double(bitPattern: UInt64(bigEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
            case (PostgresType.float4, 4):
                return Double(Float(bitPattern: UInt32(bigEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) })))
            default:
                throw mismatch(column, "a number")
            }
        }
        guard column >= 0, column < columnCount, let text = raw(column),
              [PostgresType.float4, PostgresType.float8, PostgresType.numeric].contains(result.type(of: Int32(column))),
              let value = Double(String(decoding: text, as: UTF8.self)) else {
            throw mismatch(column, "a number")
        }
        return value
    }

    /// The column decoded by its type: integers, reals, text, bytes, booleans; a type the
    /// wrapper does not decode (dates, JSON…) comes as its text.
    package func value(_ column: Int) throws(PostgresError) -> PostgresValue {
        guard column >= 0, column < columnCount else { throw mismatch(column, "a value") }
        if isNull(column) { return .null }
        let type = result.type(of: Int32(column))
        switch type {
        case _ where PostgresType.integers.contains(type): return .integer(try int64(column))
        case PostgresType.float4, PostgresType.float8: return .real(try double(column))
        case PostgresType.bytea: return .bytes(try bytes(column))
        case PostgresType.bool: return .bool(try bool(column))
        default: return .text(String(decoding: raw(column) ?? UnsafeBufferPointer(start: nil, count: 0), as: UTF8.self))
        }
    }

    /// A binary integer of type `int2`, `int4`, `int8` or `oid`, in network byte order.
    static func bigEndianInteger(_ bytes: UnsafeBufferPointer<UInt8>, type: UInt32) -> Int64? {
        let raw = UnsafeRawBufferPointer(bytes)
        switch (type, bytes.count) {
        case (PostgresType.int8, 8): return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
        case (PostgresType.int4, 4): return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
        case (PostgresType.int2, 2): return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
        case (PostgresType.oid, 4): return Int64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
        default: return nil
        }
    }

    /// Decimal digits with an optional sign, in range.
    static func parseInt64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times.subtractingReportingOverflow(Int64(digit))
                                      : times.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// `\x` followed by hex digits (the connection sets `bytea_output = hex`).
    static func decodeHexBytea(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard text.count >= 2, text.count % 2 == 0, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x") else {
            return nil
        }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((text.count - 2) / 2)
        var index = 2
        while index < text.count {
            guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
