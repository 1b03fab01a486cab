import CSQLite

/// How a transaction body ends its work (``Database/inTransaction(_:_:)``).
package enum TransactionCompletion: Sendable {
    case commit
    case rollback
}

extension Database {
    /// How a top-level transaction takes its locks.
    package enum TransactionKind: String, Sendable {
        /// Takes locks on first read or write. Fine for reads; writes may meet `SQLITE_BUSY`
        /// when upgrading, which no busy handler can resolve.
        case deferred = "DEFERRED"
        /// Takes the write lock at once (waiting through the busy handler): the right kind for
        /// any transaction that writes, and for read-then-write checks such as migrations.
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// Runs `body` in a top-level transaction: it commits when `body` returns `.commit`, and
    /// rolls back when it returns `.rollback` or throws.
    ///
    /// Before committing, the connection is checked to still be in the transaction: after some
    /// errors (`SQLITE_FULL`, I/O errors) SQLite rolls the whole transaction back by itself, and a
    /// body that caught such an error and went on would otherwise "commit" nothing, silently.
    /// Inside another transaction, use ``inSavepoint(_:)``.
    package func inTransaction(_ kind: TransactionKind = .immediate,
                              _ body: () throws -> TransactionCompletion) throws {
        guard !isInTransaction else {
            throw DatabaseError(extendedCode: SQLITE_MISUSE,
                                message: "a transaction is already open on this connection; use a savepoint", sql: nil)
        }
        try executeScript("BEGIN \(kind.rawValue)")
        do {
            let completion = try body()
            try checkStillInTransaction()
            switch completion {
            case .commit: try executeScript("COMMIT")
            case .rollback: rollbackIgnoringErrors()
            }
        } catch {
            if isInTransaction { rollbackIgnoringErrors() }
            throw error
        }
    }

    /// Runs `body` in a savepoint of the current transaction (or in a transaction of its own
    /// when there is none): `.commit` keeps its work, `.rollback` or an error undoes only it,
    /// and the error propagates to the enclosing work.
    package func inSavepoint(_ body: () throws -> TransactionCompletion) throws {
        guard isInTransaction else { return try inTransaction(.immediate, body) }
        savepointDepth += 1
        let name = "formulary_sp\(savepointDepth)"
        defer { savepointDepth -= 1 }
        try executeScript("SAVEPOINT \(name)")
        do {
            let completion = try body()
            try checkStillInTransaction()
            switch completion {
            case .commit:
                try executeScript("RELEASE \(name)")
            case .rollback:
                try executeScript("ROLLBACK TO \(name)")
                try executeScript("RELEASE \(name)")
            }
        } catch {
            // After some errors (SQLITE_FULL, I/O) SQLite has already rolled back the whole
            // transaction and the savepoint no longer exists.
            if isInTransaction {
                try? executeScript("ROLLBACK TO \(name)")
                try? executeScript("RELEASE \(name)")
            }
            throw error
        }
    }

    /// Runs `body` and commits its work when it returns a value, rolls it back when it throws:
    /// a transaction of `kind` at the top level, a savepoint inside one.
    package func transaction<T>(_ kind: TransactionKind = .immediate,
                               _ body: () throws -> T) throws -> T {
        var result: T?
        let work: () throws -> TransactionCompletion = {
            result = try body()
            return .commit
        }
        if isInTransaction { try inSavepoint(work) } else { try inTransaction(kind, work) }
        return result!
    }

    private func checkStillInTransaction() throws(DatabaseError) {
        guard isInTransaction else {
            throw DatabaseError(extendedCode: 516 /* SQLITE_ABORT_ROLLBACK */,
                                message: "SQLite rolled the transaction back during its work, after an error that was not passed on; nothing was committed",
                                sql: nil)
        }
    }

    private func rollbackIgnoringErrors() {
        // Not through executeScript: the fault-injection hook must not keep a rollback from
        // happening, or a failed transaction would stay open on the connection.
        sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
    }
}
