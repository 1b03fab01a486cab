import FormularyStore
/// Tokens of `formulary serve` (migrations/postgres/0007): the statements of
/// SQLiteBackend+Tokens.swift in PostgreSQL's dialect; ids as SQLite gives them.
package extension PostgresBackend {
    func insertToken(_ t: StoredToken) throws {
        try connection.execute("""
            INSERT INTO api_tokens (id, name, scope, hash, created_at, created_by)
            VALUES (\(Self.nextID("api_tokens")), $1, $2, $3, $4, $5)
            """, [.text(t.name), .text(t.scope), .text(t.hash), .text(t.createdAt), .text(t.createdBy)])
    }

    func revokeToken(name: String, at: String) throws -> Bool {
        try connection.execute("UPDATE api_tokens SET revoked_at = $1 WHERE name = $2 AND revoked_at IS NULL",
                               [.text(at), .text(name)]).affectedRows > 0
    }

    func tokens() throws -> [StoredToken] {
        var out: [StoredToken] = []
        for row in try connection.execute(
            "SELECT id, name, scope, hash, created_at, created_by, revoked_at FROM api_tokens ORDER BY id") {
            out.append(StoredToken(id: try row.int64(0), name: try row.string(1), scope: try row.string(2),
                                   hash: try row.string(3), createdAt: try row.string(4),
                                   createdBy: try row.string(5), revokedAt: try row.optionalString(6)))
        }
        return out
    }
}
