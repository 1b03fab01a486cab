import FormularyStore
/// Copying a whole registry (`copy --to`) on PostgreSQL: each table read as one binary
/// `COPY … TO STDOUT` stream and written by binary `COPY … FROM STDIN` in chunks of a few
/// megabytes, so that neither side holds a table and no row costs a round trip.
///
/// Ids are written as read. The backend gives new rows one more than the highest id
/// (``PostgresBackend/nextID(_:)``), never the identity columns' sequences, so nothing has to
/// be moved after a copy.
package extension PostgresBackend {
    func forEachRegistryRow(_ table: RegistryTable, _ body: (any RegistryRowReading) throws -> Void) throws {
        let kinds = table.columns.map(\.kind)
        // Names from RegistryTable only: no value reaches the SQL text (COPY takes no parameters).
        try connection.copyOut("""
            COPY (SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name)
                  ORDER BY \(table.orderColumns.joined(separator: ", "))) TO STDOUT (FORMAT binary)
            """) { fields in
            guard fields.count == kinds.count else {
                throw PostgresError(kind: .misuse, message: "a row of \(table.name) with \(fields.count) columns, not \(kinds.count)")
            }
            try body(PostgresRegistryRow(fields: fields, table: table))
        }
    }

    func registryTableIsEmpty(_ table: RegistryTable) throws -> Bool {
        try connection.scalarInt64("SELECT count(*) FROM (SELECT 1 FROM \(table.name) LIMIT 1) AS any_row") == 0
    }

    func makeRegistryRowWriter(_ table: RegistryTable) throws -> any RegistryRowWriting {
        PostgresRegistryRowWriter(connection: connection, table: table)
    }

    /// The guard that refuses an update of the key is switched off for one statement and on
    /// again, in the write transaction (PostgreSQL's `ALTER TABLE` is transactional, and needs
    /// the table's owner: the role that ran the migrations).
    func replaceAuditKey(_ key: [UInt8]) throws {
        guard key.count == 32 else { throw StoreError.corrupt("an audit key must have 32 bytes, not \(key.count)") }
        try connection.executeScript("ALTER TABLE audit_key DISABLE TRIGGER audit_key_no_update")
        try connection.execute("UPDATE audit_key SET key = $1 WHERE id = 1", [.bytes(key)])
        try connection.executeScript("ALTER TABLE audit_key ENABLE TRIGGER audit_key_no_update")
    }
}

/// A row of a binary COPY stream: each field in its type's binary form (`bigint` as 8 bytes
/// big-endian, `boolean` as one byte, text and bytes as they are).
struct PostgresRegistryRow: RegistryRowReading {
    let fields: [UnsafeRawBufferPointer?]
    let table: RegistryTable

    func isNull(_ column: Int) -> Bool { fields[column] == nil }

    func integer(_ column: Int) -> Int64 {
        guard let field = fields[column] else { return 0 }
        switch field.count {
        case 8: return Int64(bigEndian: field.loadUnaligned(as: Int64.self))
        case 4: return Int64(Int32(bigEndian: field.loadUnaligned(as: Int32.self)))
        case 2: return Int64(Int16(bigEndian: field.loadUnaligned(as: Int16.self)))
        case 1: return field[0] == 0 ? 0 : 1   // boolean
        default: return 0
        }
    }

    func withBytes<R>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(fields[column] ?? UnsafeRawBufferPointer(start: nil, count: 0))
    }
}

/// Writes one registry table's rows as binary COPY streams of about 8 MB each (the audit
/// log's one statement each).
final class PostgresRegistryRowWriter: RegistryRowWriting {
    let connection: PostgresConnection
    let table: RegistryTable
    private let kinds: [RegistryColumnKind]
    private let statement: String
    private var copy = PostgresBinaryCopy()
    static let bytesPerCopy = 8 << 20

    init(connection: PostgresConnection, table: RegistryTable) {
        self.connection = connection
        self.table = table
        kinds = table.columns.map(\.kind)
        statement = "COPY \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) FROM STDIN (FORMAT binary)"
    }

    func write(_ row: any RegistryRowReading) throws {
        if table == .auditLog { return try insert(row) }
        copy.beginRow(fields: Int16(kinds.count))
        for (index, kind) in kinds.enumerated() {
            if row.isNull(index) {
                copy.null()
                continue
            }
            switch kind {
            case .integer: copy.int8(row.integer(index))
            case .flag: copy.bool(row.integer(index) != 0)
            case .bytes: row.withBytes(index) { copy.bytea($0) }
            case .text: row.withBytes(index) { copy.text($0) }
            }
        }
        if copy.bytes.count >= Self.bytesPerCopy { try finish() }
    }

    /// One `INSERT` per record: the log's guard reads the head, which its `AFTER` trigger moves
    /// only at the end of each statement (for a COPY, after the last row).
    private func insert(_ row: any RegistryRowReading) throws {
        var values: [PostgresValue] = []
        for (index, kind) in kinds.enumerated() {
            if row.isNull(index) {
                values.append(.null)
                continue
            }
            switch kind {
            case .integer: values.append(.integer(row.integer(index)))
            case .flag: values.append(.bool(row.integer(index) != 0))
            case .bytes: values.append(.bytes(row.withBytes(index) { Array($0) }))
            case .text: values.append(.text(row.withBytes(index) { String(decoding: $0, as: UTF8.self) }))
            }
        }
        try connection.execute("""
            INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", ")))
            VALUES (\(kinds.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))
            """, values)
    }

    func finish() throws {
        guard !copy.isEmpty else { return }
        let data = copy.finished()
        copy.reset()
        try connection.copyIn(statement, data: data)
    }
}
