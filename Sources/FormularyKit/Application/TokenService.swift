import FormularyJSON
import FormularyStore

/// Tokens for `formulary serve` (`tokens add|list|revoke`): a token is shown once when it
/// is made; the database keeps only its SHA-256, and every change is audited.
public struct TokenService {
    let workspace: Workspace

    /// The service for `workspace`'s database.
    public init(workspace: Workspace) {
        self.workspace = workspace
    }

    /// A token just made: the only time the token itself is seen.
    public struct NewToken: JSONObjectRepresentable, Sendable {
        /// Its name.
        public var name: String
        /// What it may do.
        public var scope: TokenScope
        /// The token, for `Authorization: Bearer TOKEN`.
        public var token: String

        /// `{"name", "scope", "token"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            o.field("scope", scope.rawValue)
            o.field("token", token)
        }
    }

    /// One token as `tokens list` shows it: never the token or its hash.
    public struct TokenSummary: JSONObjectRepresentable, Sendable {
        /// Its name, scope, when and by whom it was made, and when it was revoked (or nil).
        public var name: String, scope: String, createdAt: String, createdBy: String, revokedAt: String?

        /// `{"name", "scope", "created_at", "created_by", "revoked_at"}`.
        public func writeFields(to o: inout JSONObjectWriter) {
            o.field("name", name)
            o.field("scope", scope)
            o.field("created_at", createdAt)
            o.field("created_by", createdBy)
            if let revokedAt { o.field("revoked_at", revokedAt) } else { o.nullField("revoked_at") }
        }
    }

    /// Makes a token named `name` with `scope` and stores its hash (audited `token.add`).
    ///
    /// - Throws: a ``ServiceError`` (bad input) for a name that is not 1–64 letters, digits,
    ///   `.`, `_` or `-`, or that a working token already has.
    public func add(name: String, scope: TokenScope) throws -> NewToken {
        guard Self.isValidName(name) else {
            throw ServiceError(.badInput, "'\(name)' is not a token name: use 1 to 64 letters, digits, '.', '_' or '-'")
        }
        let token = Self.makeToken()
        do {
            _ = try workspace.store(.write).addToken(name: name, scope: scope.rawValue, hash: Self.hash(token),
                                                     actor: workspace.settings.actor)
        } catch let error as TokenStoreError {
            throw ServiceError(.conflict, error.description)
        }
        return NewToken(name: name, scope: scope, token: token)
    }

    /// Every token, revoked ones too, oldest first; none without a database.
    public func list() throws -> [TokenSummary] {
        guard workspace.databaseExists else { return [] }
        return try workspace.store(.read).tokens().map {
            TokenSummary(name: $0.name, scope: $0.scope, createdAt: $0.createdAt, createdBy: $0.createdBy,
                         revokedAt: $0.revokedAt)
        }
    }

    /// Revokes the working token `name` (audited `token.revoke`): it stops working at once.
    ///
    /// - Throws: a ``ServiceError`` (not found) when no working token has the name.
    public func revoke(name: String) throws {
        do {
            try workspace.store(.write).revokeToken(name: name, actor: workspace.settings.actor)
        } catch let error as TokenStoreError {
            throw ServiceError(.notFound, error.description)
        }
    }

    /// The SHA-256 of a token, hex: what the database keeps and requests are matched by.
    package static func hash(_ token: String) -> String { SHA256.hex(token) }

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count) && name.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
        }
    }

    /// `fmy_` and 32 random bytes in hex, from the system's generator (getrandom).
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let digits = Array("0123456789abcdef".utf8)
        return "fmy_" + String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }, as: UTF8.self)
    }
}
