import FormularyJSON

extension Store {
    /// Every registry setting, by key (see migrations/0013_registry_settings.sql): the
    /// compatibility policies new type versions are held to.
    package func registrySettings() throws -> [String: String] {
        try backend.registrySettings()
    }

    /// Sets registry setting `key` to `value` (nil removes it, back to the default), audited
    /// as `registry.setting` with the key, the value and the one it replaced, in one
    /// transaction. Returns the value it replaced.
    @discardableResult
    package func setRegistrySetting(key: String, value: String?, actor: String) throws -> String? {
        try transaction {
            let previous = try backend.registrySettings()[key]
            guard previous != value else { return previous }
            try backend.setRegistrySetting(key: key, value: value, at: timestamp(), by: actor)
            _ = try appendAudit(actor: actor, action: "registry.setting", subject: key, details: [
                "value": value.map(JSONValue.string) ?? .null,
                "previous": previous.map(JSONValue.string) ?? .null,
            ])
            return previous
        }
    }
}
