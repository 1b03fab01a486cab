/// The registry's settings (migrations/0013_registry_settings.sql).
extension SQLiteBackend {
    package func registrySettings() throws -> [String: String] {
        var settings: [String: String] = [:]
        for row in try database.cachedStatement("SELECT key, value FROM registry_settings").map({ ($0.string(0), $0.string(1)) }) {
            settings[row.0] = row.1
        }
        return settings
    }

    package func setRegistrySetting(key: String, value: String?, at: String, by actor: String) throws {
        guard let value else {
            try database.execute("DELETE FROM registry_settings WHERE key = ?", [.text(key)])
            return
        }
        try database.execute("""
            INSERT INTO registry_settings (key, value, set_at, set_by) VALUES (?, ?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET value = excluded.value, set_at = excluded.set_at, set_by = excluded.set_by
            """, [.text(key), .text(value), .text(at), .text(actor)])
    }
}
