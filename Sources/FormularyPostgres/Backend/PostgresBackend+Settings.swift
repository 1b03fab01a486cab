import FormularyStore

/// The registry's settings (migrations/postgres/0013): the statements of
/// SQLiteBackend+Settings.swift in PostgreSQL's dialect.
package extension PostgresBackend {
    func registrySettings() throws -> [String: String] {
        var settings: [String: String] = [:]
        for row in try connection.execute("SELECT key, value FROM registry_settings") {
            settings[try row.string(0)] = try row.string(1)
        }
        return settings
    }

    func setRegistrySetting(key: String, value: String?, at: String, by actor: String) throws {
        guard let value else {
            try connection.execute("DELETE FROM registry_settings WHERE key = $1", [.text(key)])
            return
        }
        try connection.execute("""
            INSERT INTO registry_settings (key, value, set_at, set_by) VALUES ($1, $2, $3, $4)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, set_at = excluded.set_at, set_by = excluded.set_by
            """, [.text(key), .text(value), .text(at), .text(actor)])
    }
}
