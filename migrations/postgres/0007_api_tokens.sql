-- 0007 (PostgreSQL): tokens for `formulary serve`. The dialect of
-- migrations/0007_api_tokens.sql; see there.
CREATE TABLE api_tokens (
    id          BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    scope       TEXT NOT NULL CHECK (scope IN ('read', 'submit', 'admin')),
    hash        TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    revoked_at  TEXT
);
CREATE UNIQUE INDEX api_tokens_active_name ON api_tokens (name) WHERE revoked_at IS NULL;
