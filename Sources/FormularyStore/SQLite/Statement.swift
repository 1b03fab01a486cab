import CSQLite
import Foundation

/// SQLite copies bound bytes when told so; the constant itself is a C macro Swift cannot import.
@usableFromInline let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement.
///
/// Get one from ``Database/cachedStatement(_:)`` (prepared once per connection and reused) or
/// ``Database/makeStatement(_:)``. Each use starts with a fresh state: binding after a previous
/// run resets the statement first, and every run ends with a reset so that read transactions
/// and locks are never left open by a forgotten statement.
@usableFromInline package final class Statement {
    @usableFromInline let handle: OpaquePointer
    /// The SQL text, as prepared (placeholders, never values).
    @usableFromInline package let sql: String
    /// The connection, for error messages. A statement keeps no reference to its `Database`:
    /// `sqlite3_close_v2` waits for the last statement to be finalized.
    @usableFromInline let connection: OpaquePointer
    @usableFromInline let hooks: StepHookBox
    @usableFromInline var needsReset = false

    init(database: Database, sql: String) throws(DatabaseError) {
        var handle: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sql.withCString { sqlite3_prepare_v3(database.handle, $0, -1,
                                                        UInt32(SQLITE_PREPARE_PERSISTENT),
                                                        &handle, &tail) }
        guard code == SQLITE_OK else {
            throw DatabaseError(code: code, connection: database.handle, sql: sql)
        }
        guard let handle else {
            throw DatabaseError(extendedCode: SQLITE_MISUSE, message: "no SQL statement", sql: sql)
        }
        if let tail, tail.pointee != 0,
           !String(cString: tail).allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            sqlite3_finalize(handle)
            throw DatabaseError(extendedCode: SQLITE_MISUSE,
                                message: "more than one statement; use Database.executeScript",
                                sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = database.handle
        self.hooks = database.hooks
    }

    deinit { sqlite3_finalize(handle) }

    /// Number of `?` parameters.
    package var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Forgets the previous run and its bindings (all parameters become NULL).
    @inlinable package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        needsReset = false
    }

    @inlinable func prepareForBinding() {
        if needsReset { reset() }
    }

    // MARK: Binding (indices start at 1, as in SQLite)

    @inlinable package func bind(_ value: Int64, at index: Int) {
        prepareForBinding()
        sqlite3_bind_int64(handle, Int32(index), value)
    }

    @inlinable package func bind(_ value: Int, at index: Int) {
        bind(Int64(value), at: index)
    }

    @inlinable package func bind(_ value: Double, at index: Int) {
        prepareForBinding()
        sqlite3_bind_double(handle, Int32(index), value)
    }

    @inlinable package func bind(_ value: String, at index: Int) {
        prepareForBinding()
        var value = value
        value.withUTF8 { utf8 in
            // A nil base address would bind NULL, not the empty string.
            if let base = utf8.baseAddress {
                _ = base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                    sqlite3_bind_text(handle, Int32(index), $0, Int32(utf8.count), sqliteTransient)
                }
            } else {
                sqlite3_bind_text(handle, Int32(index), "", 0, sqliteTransient)
            }
        }
    }

    @inlinable package func bind(_ value: String?, at index: Int) {
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }

    @inlinable package func bind(_ value: Int64?, at index: Int) {
        if let value { bind(value, at: index) } else { bindNull(at: index) }
    }

    /// Binds a BLOB; SQLite copies the bytes.
    @inlinable package func bind(bytes: UnsafeRawBufferPointer, at index: Int) {
        prepareForBinding()
        if let base = bytes.baseAddress, bytes.count > 0 {
            sqlite3_bind_blob(handle, Int32(index), base, Int32(bytes.count), sqliteTransient)
        } else {
            // An empty BLOB, not NULL.
            sqlite3_bind_zeroblob(handle, Int32(index), 0)
        }
    }

    @inlinable package func bind(_ value: [UInt8], at index: Int) {
        value.withUnsafeBytes { bind(bytes: $0, at: index) }
    }

    /// Binds a BLOB from `Data`; SQLite copies the bytes.
    package func bind(_ value: Data, at index: Int) {
        value.withUnsafeBytes { bind(bytes: $0, at: index) }
    }

    @inlinable package func bindNull(at index: Int) {
        prepareForBinding()
        sqlite3_bind_null(handle, Int32(index))
    }

    package func bind(_ value: SQLValue, at index: Int) {
        switch value {
        case .null: bindNull(at: index)
        case .integer(let v): bind(v, at: index)
        case .real(let v): bind(v, at: index)
        case .text(let v): bind(v, at: index)
        case .blob(let v): bind(v, at: index)
        }
    }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when the statement is done
    /// (the statement is then reset, keeping its bindings for another run).
    @inlinable package func step() throws(DatabaseError) -> Bool {
        if let hook = hooks.hook, let injected = hook(sql) {
            sqlite3_reset(handle)
            needsReset = true
            throw DatabaseError(extendedCode: injected, message: nil, sql: sql)
        }
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW:
            needsReset = true
            return true
        case SQLITE_DONE:
            sqlite3_reset(handle)
            needsReset = true
            return false
        default:
            sqlite3_reset(handle)
            needsReset = true
            throw DatabaseError(code: code, connection: connection, sql: sql)
        }
    }

    /// Runs the statement to completion, ignoring rows.
    @inlinable package func execute() throws(DatabaseError) {
        while try step() {}
    }

    /// Runs the statement with `arguments` bound.
    package func execute(_ arguments: StatementArguments) throws(DatabaseError) {
        try bind(arguments)
        try execute()
    }

    /// Calls `body` for each row. The ``Row`` must not escape the call; reading it allocates
    /// nothing beyond the values taken out.
    @inlinable package func forEachRow(_ body: (Row) throws -> Void) throws {
        try forEachRowWhile { row in
            try body(row)
            return true
        }
    }

    /// Calls `body` for each row until it returns false (the statement is then reset).
    @inlinable package func forEachRowWhile(_ body: (Row) throws -> Bool) throws {
        defer { if needsReset { sqlite3_reset(handle) } }
        let row = Row(handle: handle)
        while try step() {
            guard try body(row) else { return }
        }
    }

    /// The rows mapped by `transform`.
    package func map<T>(_ transform: (Row) throws -> T) throws -> [T] {
        var result: [T] = []
        defer { sqlite3_reset(handle) }
        let row = Row(handle: handle)
        while try step() { result.append(try transform(row)) }
        return result
    }

    /// The first row mapped by `transform`, or nil when there is none.
    package func first<T>(_ transform: (Row) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        guard try step() else { return nil }
        return try transform(Row(handle: handle))
    }
}
