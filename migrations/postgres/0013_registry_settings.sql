-- 0013 (PostgreSQL): the registry's settings (compatibility policies). The dialect of
-- migrations/0013_registry_settings.sql; see there.
CREATE TABLE registry_settings (
    key     TEXT PRIMARY KEY,
    value   TEXT NOT NULL,
    set_at  TEXT NOT NULL,
    set_by  TEXT NOT NULL
);
