import Foundation

/// Everything in a database file, read from outside Formulary: its schema and every row
/// of every table, each column rendered by SQLite's `quote()` (so blobs, NULLs, and text
/// with NULs or quotes compare exactly). The hostile-input tests compare snapshots taken
/// before and after a command to prove what it did not touch.
struct DatabaseSnapshot: Equatable {
    /// `sqlite_master`: type, name, table and SQL of every table, index and trigger.
    var schema: [[String?]]
    /// Rows by table name, in a stable order.
    var tables: [String: [[String?]]]

    init(path: String) throws {
        let sql = try SQLiteShell(path: path)
        schema = try sql.query("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name")
        tables = [:]
        for table in try Self.tableNames(sql) {
            let columns = try Self.columns(of: table, sql)
            let list = columns.map { "quote(\(Self.identifier($0)))" }.joined(separator: ", ")
            let order = (1...columns.count).map(String.init).joined(separator: ", ")
            tables[table] = try sql.query("SELECT \(list) FROM \(Self.identifier(table)) ORDER BY \(order)")
        }
    }

    /// The rows of `table` that `later` no longer has (changed or deleted).
    func rowsMissing(from later: DatabaseSnapshot, in table: String) -> [[String?]] {
        let after = Set((later.tables[table] ?? []).map { $0.map { $0 ?? "∅" } })
        return (tables[table] ?? []).filter { !after.contains($0.map { $0 ?? "∅" }) }
    }

    /// Where `marker` occurs in the database: `table.column` names with the number of rows.
    /// The search is on the stored bytes (text and blobs alike).
    static func occurrences(of marker: String, path: String) throws -> [String: Int] {
        let sql = try SQLiteShell(path: path)
        var found: [String: Int] = [:]
        let needle = "X'" + marker.utf8.map { String(format: "%02X", $0) }.joined() + "'"
        for table in try tableNames(sql) {
            for column in try columns(of: table, sql) {
                let count = try sql.scalar("""
                    SELECT count(*) FROM \(identifier(table))
                    WHERE instr(CAST(\(identifier(column)) AS BLOB), \(needle)) > 0
                    """)
                if let count, count != "0" { found["\(table).\(column)"] = Int(count) }
            }
        }
        return found
    }

    static func tableNames(_ sql: SQLiteShell) throws -> [String] {
        try sql.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").compactMap { $0.first ?? nil }
    }

    static func columns(of table: String, _ sql: SQLiteShell) throws -> [String] {
        try sql.query("SELECT name FROM pragma_table_info(\(literal(table))) ORDER BY cid").compactMap { $0.first ?? nil }
    }

    static func identifier(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Row counts by table, for messages.
    var counts: [String: Int] { tables.mapValues(\.count) }
}
