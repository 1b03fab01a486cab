import FormularyJSON

/// A token of `formulary serve` as stored: never the token itself, only its SHA-256.
package struct StoredToken: Sendable, Equatable {
    /// The row's id (0 before it is stored).
    package var id: Int64
    /// The name people and the access log know it by.
    package var name: String
    /// `read`, `submit` or `admin`.
    package var scope: String
    /// The SHA-256 of the token, hex.
    package var hash: String
    /// When it was made.
    package var createdAt: String
    /// Who made it.
    package var createdBy: String
    /// When it was revoked, or nil while it works.
    package var revokedAt: String?

    /// A token row.
    package init(id: Int64 = 0, name: String, scope: String, hash: String, createdAt: String, createdBy: String,
                revokedAt: String? = nil) {
        self.id = id
        self.name = name
        self.scope = scope
        self.hash = hash
        self.createdAt = createdAt
        self.createdBy = createdBy
        self.revokedAt = revokedAt
    }
}

/// Why a token change was refused.
package enum TokenStoreError: Error, Equatable, CustomStringConvertible {
    /// An unrevoked token already has the name.
    case nameTaken(String)
    /// No unrevoked token has the name.
    case noSuchToken(String)

    /// What went wrong and what to do.
    package var description: String {
        switch self {
        case .nameTaken(let name):
            "a token named '\(name)' already works; revoke it first ('formulary tokens revoke \(name)') or choose another name"
        case .noSuchToken(let name):
            "no working token is named '\(name)'; 'formulary tokens list' shows them"
        }
    }
}

extension Store {
    /// Stores a token's hash under `name` with `scope`, audited as `token.add` with the
    /// token's id, scope and the digest of its row (never the token or its hash), in one
    /// transaction.
    package func addToken(name: String, scope: String, hash: String, actor: String) throws -> StoredToken {
        try transaction {
            if try backend.tokens().contains(where: { $0.name == name && $0.revokedAt == nil }) {
                throw TokenStoreError.nameTaken(name)
            }
            try backend.insertToken(StoredToken(name: name, scope: scope, hash: hash, createdAt: timestamp(),
                                                createdBy: actor))
            // Read back, so that the digest is made of the row as stored, id and all (the
            // hash is unique: no other row has it).
            guard let token = try backend.tokens().first(where: { $0.hash == hash }) else {
                throw StoreError.corrupt("the token just stored under '\(name)' cannot be read back")
            }
            _ = try appendAudit(actor: actor, action: AuditAction.tokenAdd, subject: name,
                                details: .object(try auditDetails(of: token)))
            return token
        }
    }

    /// Revokes the working token `name`, audited as `token.revoke` with the digest of its
    /// revoked row, in one transaction.
    package func revokeToken(name: String, actor: String) throws {
        try transaction {
            guard var token = try backend.tokens().first(where: { $0.name == name && $0.revokedAt == nil }) else {
                throw TokenStoreError.noSuchToken(name)
            }
            let at = timestamp()
            guard try backend.revokeToken(name: name, at: at) else { throw TokenStoreError.noSuchToken(name) }
            token.revokedAt = at
            _ = try appendAudit(actor: actor, action: AuditAction.tokenRevoke, subject: name,
                                details: .object(try auditDetails(of: token)))
        }
    }

    /// Every token, revoked ones too, oldest first.
    package func tokens() throws -> [StoredToken] {
        try backend.tokens()
    }

    /// What an audit record holds of a token: its id, scope and revocation time in the clear
    /// (what `audit verify` names when the row differs from them) and the digest of the whole
    /// row, which covers the token's hash without showing it.
    func auditDetails(of token: StoredToken) throws -> JSONObject {
        [
            "token": .integer(Int(token.id)),
            "scope": .string(token.scope),
            "revoked_at": token.revokedAt.map { .string($0) } ?? .null,
            "digest": .string(DataDigests.tokenDigest(key: try auditKey(), token: token)),
        ]
    }

    /// Appends one `audit.seal` record with every token's row as it stands (migration 11 on a
    /// database that has tokens): their older records hold no digest, and this is the
    /// baseline `audit verify` compares the rows with until a later record of the token.
    func sealExistingTokens(actor: String) throws {
        let tokens = try backend.tokens()
        guard !tokens.isEmpty else { return }
        var sealed = JSONObject()
        for token in tokens {
            var details = try auditDetails(of: token)
            details["token"] = nil
            details["name"] = .string(token.name)
            sealed[String(token.id)] = .object(details)
        }
        try appendAudit(actor: actor, action: AuditAction.seal, subject: "tokens before digests",
                        details: ["tokens": .object(sealed)])
    }
}
