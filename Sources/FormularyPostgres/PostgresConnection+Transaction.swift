import FormularyStore
import CLibPQ

/// What a PostgreSQL transaction is for.
package enum PostgresTransactionKind: Sendable {
    /// Reads and writes, `READ COMMITTED` (PostgreSQL's default): writers that must not
    /// interleave take a lock of their own (a row lock, an advisory lock).
    case readWrite
    /// `REPEATABLE READ READ ONLY`: every statement sees the same snapshot, and nothing can
    /// be written.
    case readOnly
}

extension PostgresConnection {
    /// Runs `body` in a transaction (or in a savepoint inside one) and commits its work when
    /// it returns, rolls it back when it throws.
    ///
    /// Before committing, the transaction is checked not to be aborted: after a failed
    /// statement PostgreSQL refuses everything but a rollback and answers `COMMIT` with
    /// `ROLLBACK` — without an error. A body that caught such an error and went on would
    /// otherwise "commit" nothing, silently; here it is an error.
    @discardableResult
    package func transaction<T>(_ kind: PostgresTransactionKind = .readWrite,
                               _ body: () throws -> T) throws -> T {
        if isInTransaction { return try inSavepoint(body) }
        switch kind {
        case .readWrite: try executeScript("BEGIN")
        case .readOnly: try executeScript("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        let value: T
        do {
            value = try body()
            try checkNotAborted()
            let result = try execute("COMMIT")
            guard result.commandTag == "COMMIT" else {
                throw PostgresError(kind: .server, message: "the server rolled the transaction back at COMMIT; nothing was committed",
                                    sql: "COMMIT")
            }
        } catch {
            rollbackIgnoringErrors()
            throw error
        }
        return value
    }

    /// Runs `body` in a savepoint of the open transaction: its work stays when it returns, and
    /// only its work is undone when it throws (the error goes on to the enclosing work).
    func inSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "formulary_sp\(savepointDepth)"
        try executeScript("SAVEPOINT \(name)")
        do {
            let value = try body()
            try checkNotAborted()
            try executeScript("RELEASE SAVEPOINT \(name)")
            return value
        } catch {
            // Rows held back were written inside the savepoint (its SAVEPOINT statement sent
            // those before): they go with it. ROLLBACK TO also clears an aborted state, so the
            // enclosing work can go on.
            pending?.discard()
            pending = nil
            if isConnected {
                try? executeScript("ROLLBACK TO SAVEPOINT \(name)")
                try? executeScript("RELEASE SAVEPOINT \(name)")
            }
            throw error
        }
    }

    private func checkNotAborted() throws(PostgresError) {
        guard !isTransactionAborted else {
            throw PostgresError(kind: .misuse,
                                message: "a statement of the transaction failed and its error was not passed on; nothing was committed")
        }
    }

    /// Rolls the open transaction back, whatever state it is in.
    func rollbackIgnoringErrors() {
        pending?.discard()
        pending = nil
        guard isInTransaction else { return }
        if let result = pq.PQexec(handle, "ROLLBACK") { pq.PQclear(result) }
    }
}
