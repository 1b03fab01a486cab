import FormularyJSON

/// A token of `formulary serve` as stored: never the token itself, only its SHA-256.
public struct StoredToken: Sendable, Equatable {
    /// The row's id (0 before it is stored).
    public var id: Int64
    /// The name people and the access log know it by.
    public var name: String
    /// `read`, `submit` or `admin`.
    public var scope: String
    /// The SHA-256 of the token, hex.
    public var hash: String
    /// When it was made.
    public var createdAt: String
    /// Who made it.
    public var createdBy: String
    /// When it was revoked, or nil while it works.
    public var revokedAt: String?

    /// A token row.
    public init(id: Int64 = 0, name: String, scope: String, hash: String, createdAt: String, createdBy: String,
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
public enum TokenStoreError: Error, Equatable, CustomStringConvertible {
    /// An unrevoked token already has the name.
    case nameTaken(String)
    /// No unrevoked token has the name.
    case noSuchToken(String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .nameTaken(let name):
            "a token named '\(name)' already works; revoke it first ('formulary tokens revoke \(name)') or choose another name"
        case .noSuchToken(let name):
            "no working token is named '\(name)'; 'formulary tokens list' shows them"
        }
    }
}

extension Store {
    /// Stores a token's hash under `name` with `scope`, audited as `token.add` (the name and
    /// scope; never the token or its hash), in one transaction.
    public func addToken(name: String, scope: String, hash: String, actor: String) throws -> StoredToken {
        try transaction {
            if try backend.tokens().contains(where: { $0.name == name && $0.revokedAt == nil }) {
                throw TokenStoreError.nameTaken(name)
            }
            let token = StoredToken(name: name, scope: scope, hash: hash, createdAt: timestamp(), createdBy: actor)
            try backend.insertToken(token)
            _ = try appendAudit(actor: actor, action: "token.add", subject: name, details: ["scope": .string(scope)])
            return token
        }
    }

    /// Revokes the working token `name`, audited as `token.revoke`, in one transaction.
    public func revokeToken(name: String, actor: String) throws {
        try transaction {
            guard try backend.revokeToken(name: name, at: timestamp()) else { throw TokenStoreError.noSuchToken(name) }
            _ = try appendAudit(actor: actor, action: "token.revoke", subject: name)
        }
    }

    /// Every token, revoked ones too, oldest first.
    public func tokens() throws -> [StoredToken] {
        try backend.tokens()
    }
}
