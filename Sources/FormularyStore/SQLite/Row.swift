import CSQLite

/// The current row of a stepping ``Statement``.
///
/// A `Row` is a view: it is only valid inside the closure that received it (do not keep it), and reading a
/// column costs no allocation beyond the value returned (none at all for numbers and for
/// ``withUnsafeBytes(at:_:)``).
@usableFromInline package struct Row {
    @usableFromInline let handle: OpaquePointer

    @usableFromInline init(handle: OpaquePointer) { self.handle = handle }

    /// Number of columns in the result.
    @inlinable package var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// True when the column holds SQL NULL.
    @inlinable package func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    @inlinable package func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(column))
    }

    @inlinable package func int(_ column: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(column)))
    }

    @inlinable package func optionalInt64(_ column: Int) -> Int64? {
        isNull(column) ? nil : int64(column)
    }

    @inlinable package func double(_ column: Int) -> Double {
        sqlite3_column_double(handle, Int32(column))
    }

    @inlinable package func bool(_ column: Int) -> Bool { int64(column) != 0 }

    /// The column as text; NULL reads as the empty string (use ``optionalString(_:)`` to tell).
    @inlinable package func string(_ column: Int) -> String {
        optionalString(column) ?? ""
    }

    @inlinable package func optionalString(_ column: Int) -> String? {
        guard let text = sqlite3_column_text(handle, Int32(column)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's bytes, copied; NULL reads as an empty array.
    @inlinable package func blob(_ column: Int) -> [UInt8] {
        withUnsafeBytes(at: column) { Array($0) }
    }

    /// Calls `body` with the column's bytes as stored by SQLite, without copying them.
    ///
    /// The buffer is valid only during the call. Text columns give their UTF-8 bytes; NULL
    /// gives an empty buffer.
    @inlinable package func withUnsafeBytes<R, E: Error>(
        at column: Int, _ body: (UnsafeRawBufferPointer) throws(E) -> R
    ) throws(E) -> R {
        let index = Int32(column)
        // sqlite3_column_blob before sqlite3_column_bytes, as the documentation orders.
        let base = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }

    /// The column as an ``SQLValue``, whatever its storage class.
    package func value(_ column: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: .integer(int64(column))
        case SQLITE_FLOAT: .real(double(column))
        case SQLITE_TEXT: .text(string(column))
        case SQLITE_BLOB: .blob(blob(column))
        default: .null
        }
    }
}
