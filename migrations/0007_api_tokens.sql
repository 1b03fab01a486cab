-- 0007: tokens for `formulary serve` (`tokens add|list|revoke`). Only the SHA-256 of a
-- token is kept (hex); the token itself is printed once when it is made. A revoked token
-- keeps its row (when, by whom) and stops working; its name may then be given to a new one.
CREATE TABLE api_tokens (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    scope       TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin')),
    hash        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    revoked_at  TEXT
) STRICT;
CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL;
