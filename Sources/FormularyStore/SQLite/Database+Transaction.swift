import CSQLite

extension Database {
    /// How a top-level transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        /// Takes locks on first read or write. Fine for reads; writes may meet `SQLITE_BUSY`
        /// when upgrading, which no busy handler can resolve.
        case deferred = "DEFERRED"
        /// Takes the write lock at once (waiting through the busy handler): the right kind for
        /// any transaction that writes, and for read-then-write checks such as migrations.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws.
    ///
    /// Inside another transaction, `body` runs in a savepoint instead: its failure rolls back
    /// only its own work and the error propagates to the outer transaction's body.
    public func transaction<T>(_ kind: TransactionKind = .immediate,
                               _ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            let name = "formulary_sp\(savepointDepth)"
            defer { savepointDepth -= 1 }
            try executeScript("SAVEPOINT \(name)")
            do {
                let result = try body()
                try executeScript("RELEASE \(name)")
                return result
            } catch {
                // After some errors (SQLITE_FULL, I/O) SQLite has already rolled back the
                // whole transaction and the savepoint no longer exists.
                if isInTransaction {
                    try? executeScript("ROLLBACK TO \(name)")
                    try? executeScript("RELEASE \(name)")
                }
                throw error
            }
        }
        try executeScript("BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try executeScript("COMMIT")
            return result
        } catch {
            if isInTransaction { rollbackIgnoringErrors() }
            throw error
        }
    }

    private func rollbackIgnoringErrors() {
        // Not through executeScript: the fault-injection hook must not keep a rollback from
        // happening, or a failed transaction would stay open on the connection.
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}
