import FormularyStore
extension PostgresConnection {
    /// Calls `body` with each row of `sql` (its `$n` bound to `arguments`), read through a
    /// server-side cursor `pageSize` rows at a time, so that neither side holds the whole
    /// result; stops when `body` returns false. Outside a transaction, the rows come from one
    /// read-only snapshot (a cursor lives in a transaction). Cursors may nest.
    func forEachRow(_ sql: String, _ arguments: [PostgresValue], pageSize: Int = 2000,
                    _ body: (PostgresRow) throws -> Bool) throws {
        guard isInTransaction else {
            return try transaction(.readOnly) { try forEachRow(sql, arguments, pageSize: pageSize, body) }
        }
        cursorDepth += 1
        defer { cursorDepth -= 1 }
        let name = "formulary_cursor\(cursorDepth)"
        try execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", arguments)
        do {
            reading: while true {
                let page = try execute("FETCH FORWARD \(pageSize) FROM \(name)")
                if page.isEmpty { break }
                for row in page {
                    if try !body(row) { break reading }
                }
            }
        } catch {
            if !isTransactionAborted { try? executeScript("CLOSE \(name)") }
            throw error
        }
        try executeScript("CLOSE \(name)")
    }
}
