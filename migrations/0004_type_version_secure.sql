-- 0004: whether each stored type version is `secure`, so that outputs mask a stored value by
-- the version that judged it without parsing its source again. Set when a version is
-- recorded; `formulary migrate` fills it for versions stored before (from their sources).
-- It is part of the version's data digest (docs/storage.md), so a flag turned off outside
-- formulary shows in `audit verify`.
ALTER TABLE type_versions ADD COLUMN secure INTEGER NOT NULL DEFAULT 0 CHECK (secure IN (0, 1));
