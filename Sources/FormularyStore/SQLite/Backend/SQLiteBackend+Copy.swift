import CSQLite

/// Copying a whole registry (`copy --to`): each table read by one statement stepped row by
/// row, and written by one prepared `INSERT` reused for every row.
extension SQLiteBackend {
    package func forEachRegistryRow(_ table: RegistryTable, _ body: (any RegistryRowReading) throws -> Void) throws {
        // Names from RegistryTable only: no value reaches the SQL text.
        let statement = try database.makeStatement("""
            SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)
            ORDER BY \(table.orderColumns.joined(separator: ", "))
            """)
        try statement.forEachRow { try body(SQLiteRegistryRow(row: $0)) }
    }

    package func registryTableIsEmpty(_ table: RegistryTable) throws -> Bool {
        try database.scalarInt64("SELECT EXISTS (SELECT 1 FROM \(table.name))") == 0
    }

    package func makeRegistryRowWriter(_ table: RegistryTable) throws -> any RegistryRowWriting {
        SQLiteRegistryRowWriter(statement: try database.makeStatement("""
            INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", ")))
            VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))
            """), columns: table.columns)
    }

    /// The trigger that refuses an update of the key is dropped and created again from its
    /// own text, in the write transaction: SQLite's schema changes are transactional, and the
    /// stored text is what `audit verify` compares with the migrations'.
    package func replaceAuditKey(_ key: [UInt8]) throws {
        guard key.count == 32 else { throw StoreError.corrupt("an audit key must have 32 bytes, not \(key.count)") }
        guard let guardText = try database.scalarString(
            "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND name = 'audit_key_no_update'") else {
            throw StoreError.corrupt("the trigger audit_key_no_update is missing")
        }
        try database.executeScript("DROP TRIGGER audit_key_no_update")
        try database.execute("UPDATE audit_key SET key = ? WHERE id = 1", [.blob(key)])
        try database.executeScript(guardText)
    }
}

/// A row of a registry table as SQLite's statement holds it.
struct SQLiteRegistryRow: RegistryRowReading {
    let row: Row

    func isNull(_ column: Int) -> Bool { row.isNull(column) }
    func integer(_ column: Int) -> Int64 { row.int64(column) }
    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try row.withUnsafeBytesRethrowing(at: column, body)
    }
}

extension Row {
    /// ``withUnsafeBytes(at:_:)`` for a body that may throw any error.
    func withUnsafeBytesRethrowing<R>(at column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let index = Int32(column)
        let base = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count))
    }
}

/// Writes one registry table's rows through one prepared `INSERT`, each value bound by its
/// column's kind (text as text, so that SQLite's STRICT tables take it).
final class SQLiteRegistryRowWriter: RegistryRowWriting {
    let statement: Statement
    let columns: [RegistryColumn]

    init(statement: Statement, columns: [RegistryColumn]) {
        self.statement = statement
        self.columns = columns
    }

    func write(_ row: any RegistryRowReading) throws {
        for (index, column) in columns.enumerated() {
            let parameter = index + 1
            if row.isNull(index) {
                statement.bindNull(at: parameter)
                continue
            }
            switch column.kind {
            case .integer, .flag:
                statement.bind(row.integer(index), at: parameter)
            case .bytes:
                row.withBytes(index) { statement.bind(bytes: $0, at: parameter) }
            case .text:
                row.withBytes(index) { statement.bind(utf8: $0, at: parameter) }
            }
        }
        try statement.execute()
    }

    func finish() throws {}
}

extension Statement {
    /// Binds UTF-8 bytes as TEXT (the empty string for no bytes, never NULL); SQLite copies them.
    func bind(utf8 bytes: UnsafeRawBufferPointer, at index: Int) {
        prepareForBinding()
        if let base = bytes.baseAddress, bytes.count > 0 {
            sqlite3_bind_text(handle, Int32(index), base.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                              sqliteTransient)
        } else {
            sqlite3_bind_text(handle, Int32(index), "", 0, sqliteTransient)
        }
    }
}
