-- 0001: field types, forms, entries and the audit log.
-- The numbered files of migrations/ are the only definition of the schema; see docs/storage.md.

-- Field types, content-addressed: one row per distinct resolved definition of a name,
-- whether it was added with `types add` or only used by a validation run (origin).
CREATE TABLE type_versions (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    hash        TEXT NOT NULL CHECK (length(hash) = 64),  -- SHA-256 hex of `source`
    source      TEXT NOT NULL,                            -- canonical source of the resolved definition
    origin      TEXT NOT NULL,                            -- 'database', 'builtin', 'folder:PATH'…
    recorded_at TEXT NOT NULL,                            -- UTC ISO 8601
    actor       TEXT NOT NULL,
    UNIQUE (name, hash)
) STRICT;

-- What happened to database types: an 'add' makes a version the current database type of
-- its name, a 'retire' hides the name from the registry. The latest event of a name wins.
CREATE TABLE type_events (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('add', 'retire')),
    version_id INTEGER REFERENCES type_versions (id),
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL,
    CHECK ((action = 'add') = (version_id IS NOT NULL))
) STRICT;
CREATE INDEX type_events_by_name ON type_events (name, id);

-- Forms are versioned the same way as types.
CREATE TABLE form_versions (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    hash        TEXT NOT NULL CHECK (length(hash) = 64),
    source      TEXT NOT NULL,
    origin      TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    actor       TEXT NOT NULL,
    UNIQUE (name, hash)
) STRICT;

CREATE TABLE form_events (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('add', 'retire')),
    version_id INTEGER REFERENCES form_versions (id),
    at         TEXT NOT NULL,
    actor      TEXT NOT NULL,
    CHECK ((action = 'add') = (version_id IS NOT NULL))
) STRICT;
CREATE INDEX form_events_by_name ON form_events (name, id);

-- The names entries are filed under. Entries belong to a form name, not to a version: the
-- form may change between imports and validation runs.
CREATE TABLE forms (
    id   INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
) STRICT;

-- An ordered list of column names (an import's header, or a JSON Lines object's keys),
-- encoded like entry values. An entry's values are stored in the order of its layout, so
-- the mapping from form fields to positions is computed once per layout, not once per row.
CREATE TABLE entry_layouts (
    id     INTEGER PRIMARY KEY,
    fields BLOB NOT NULL UNIQUE
) STRICT;

-- Each import: entries point to the import that created them and to the one that last
-- changed them, which is cheaper than two timestamps per row and says more.
CREATE TABLE imports (
    id      INTEGER PRIMARY KEY,
    form_id INTEGER NOT NULL REFERENCES forms (id),
    at      TEXT NOT NULL,                                -- UTC ISO 8601
    actor   TEXT NOT NULL,
    source  TEXT NOT NULL                                 -- file name, or '-' for standard input
) STRICT;

-- Entries. `vals` holds one slot per layout field: see EntryValues in docs/storage.md.
-- `version` counts the updates made by keyed imports; earlier versions are in entry_versions.
--
-- This is the hot table of import (300,000 entries/s wanted), so it carries only what pays
-- for itself, measured: no AUTOINCREMENT (entries are never deleted, so ids are never
-- reused, which validation runs rely on: they derive the entries they judged from id ranges;
-- a future delete must keep that true), no index on form_id (a form's entries are read by a
-- scan, which is faster than an index walk when most entries belong to few forms), and no
-- declared foreign keys (each costs a parent lookup per row). form_id, layout_id, created_in
-- and updated_in are always set by EntryWriter from rows it created in the same transaction;
-- a test checks them.
CREATE TABLE entries (
    id         INTEGER PRIMARY KEY,
    form_id    INTEGER NOT NULL,                          -- forms (id)
    key        TEXT,
    layout_id  INTEGER NOT NULL,                          -- entry_layouts (id)
    vals       BLOB NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    created_in INTEGER NOT NULL,                          -- imports (id)
    updated_in INTEGER                                    -- imports (id); NULL until a keyed import changes it
) STRICT;
CREATE UNIQUE INDEX entries_by_key ON entries (form_id, key) WHERE key IS NOT NULL;

-- The values an entry had before each keyed update: version N was written by import
-- `written_in` and replaced by import `replaced_in`.
CREATE TABLE entry_versions (
    entry_id    INTEGER NOT NULL REFERENCES entries (id),
    version     INTEGER NOT NULL,
    layout_id   INTEGER NOT NULL REFERENCES entry_layouts (id),
    vals        BLOB NOT NULL,
    written_in  INTEGER NOT NULL REFERENCES imports (id),
    replaced_in INTEGER NOT NULL REFERENCES imports (id),
    PRIMARY KEY (entry_id, version)
) STRICT, WITHOUT ROWID;

-- The audit log: an append-only hash chain (docs/storage.md gives the exact encoding).
CREATE TABLE audit_log (
    seq       INTEGER PRIMARY KEY,
    at        TEXT NOT NULL,
    actor     TEXT NOT NULL,
    action    TEXT NOT NULL,
    subject   TEXT NOT NULL,
    details   TEXT NOT NULL,                                -- canonical JSON
    prev_hash TEXT NOT NULL CHECK (length(prev_hash) = 64),
    hash      TEXT NOT NULL CHECK (length(hash) = 64)
) STRICT;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE is refused');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: DELETE is refused');
END;

-- The newest record's seq and hash, kept by a trigger in the same transaction as the append,
-- so that cutting records off the end of the log shows.
CREATE TABLE audit_head (
    id   INTEGER PRIMARY KEY CHECK (id = 1),
    seq  INTEGER NOT NULL,
    hash TEXT NOT NULL
) STRICT;
INSERT INTO audit_head (id, seq, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

CREATE TRIGGER audit_log_head AFTER INSERT ON audit_log
BEGIN
    UPDATE audit_head SET seq = NEW.seq, hash = NEW.hash WHERE id = 1;
END;

CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head
BEGIN
    SELECT RAISE(ABORT, 'audit_head cannot be deleted');
END;
