-- 0004 (PostgreSQL): whether each stored type version is `secure`. The dialect of
-- migrations/0004_type_version_secure.sql; see there.
ALTER TABLE type_versions ADD COLUMN secure BOOLEAN NOT NULL DEFAULT false;
