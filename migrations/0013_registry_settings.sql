-- 0013: the registry's settings (issue 30): the compatibility policy every new type version
-- is held to. Key 'compatibility' is the registry's default; 'compatibility.NAME' is type
-- NAME's own. Values: backward, forward, full, none. No row: the default 'backward' (or the
-- registry's). Set with `formulary types policy`, audited as `registry.setting`.
CREATE TABLE registry_settings (
    key     TEXT PRIMARY KEY,
    value   TEXT NOT NULL,
    set_at  TEXT NOT NULL,
    set_by  TEXT NOT NULL
) STRICT, WITHOUT ROWID;
