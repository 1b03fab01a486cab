/// Tokens of `formulary serve` (migration 0007).
extension SQLiteBackend {
    package func insertToken(_ t: StoredToken) throws {
        try database.execute("""
            INSERT INTO api_tokens (name, scope, hash, created_at, created_by) VALUES (?, ?, ?, ?, ?)
            """, [.text(t.name), .text(t.scope), .text(t.hash), .text(t.createdAt), .text(t.createdBy)])
    }

    package func revokeToken(name: String, at: String) throws -> Bool {
        try database.execute("UPDATE api_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
                             [.text(at), .text(name)])
        return database.changes > 0
    }

    package func tokens() throws -> [StoredToken] {
        try database.cachedStatement("""
            SELECT id, name, scope, hash, created_at, created_by, revoked_at FROM api_tokens ORDER BY id
            """).map {
            StoredToken(id: $0.int64(0), name: $0.string(1), scope: $0.string(2), hash: $0.string(3),
                        createdAt: $0.string(4), createdBy: $0.string(5), revokedAt: $0.optionalString(6))
        }
    }
}
