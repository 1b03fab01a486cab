-- 0002: validation runs and their results (issue 4). See docs/storage.md, "Validation runs".
-- Passing entries cost no row: a run records, per form, which entries it judged (every entry
-- of the form with id <= judged_through); an entry it judged without a row in run_results
-- passed.

CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    started_at      TEXT NOT NULL,                          -- UTC ISO 8601, taken under the write lock
    ended_at        TEXT,
    actor           TEXT NOT NULL,
    today           TEXT NOT NULL,                          -- the YYYY-MM-DD the checks used
    -- The newest imports.id when the run started: the run judged, of each entry, the version
    -- written by the latest import <= last_import (exact, where timestamps could tie).
    last_import     INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete')),
    -- The process doing the run, so that a reader can tell a live run from one whose process
    -- died: a 'running' run whose process is gone reads as incomplete.
    host            TEXT NOT NULL,
    pid             INTEGER NOT NULL,
    process_start   TEXT NOT NULL,                          -- the process's start time token ('' if unknown)
    error           TEXT,                                   -- why an incomplete run stopped
    entries_checked INTEGER NOT NULL DEFAULT 0,
    entries_invalid INTEGER NOT NULL DEFAULT 0,             -- with at least one error
    entries_warned  INTEGER NOT NULL DEFAULT 0,             -- with warnings and no error
    errors          INTEGER NOT NULL DEFAULT 0,             -- failed rules of error severity
    warnings        INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX runs_running ON runs (id) WHERE status = 'running';

-- Each form a run judged, with the form version used and how far it got: entries of the form
-- with id <= judged_through were judged (each batch commits this with its results and counts).
-- last_id is the highest entry id when the run started (entries are read in one pass over
-- the id space, all chosen forms at once): the run finished the form when judged_through =
-- last_id.
CREATE TABLE run_forms (
    run_id          INTEGER NOT NULL REFERENCES runs (id),
    form_id         INTEGER NOT NULL REFERENCES forms (id),
    form_version_id INTEGER NOT NULL REFERENCES form_versions (id),
    last_id         INTEGER NOT NULL,
    judged_through  INTEGER NOT NULL DEFAULT 0,
    entries_checked INTEGER NOT NULL DEFAULT 0,
    entries_invalid INTEGER NOT NULL DEFAULT 0,
    entries_warned  INTEGER NOT NULL DEFAULT 0,
    errors          INTEGER NOT NULL DEFAULT 0,
    warnings        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, form_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX run_forms_by_form ON run_forms (form_id, run_id);

-- The type version that judged each field of each form in a run (built-in and folder types
-- too: they are recorded in type_versions with their origin).
CREATE TABLE run_type_versions (
    run_id          INTEGER NOT NULL REFERENCES runs (id),
    form_id         INTEGER NOT NULL REFERENCES forms (id),
    field           TEXT NOT NULL,
    type_version_id INTEGER NOT NULL REFERENCES type_versions (id),
    PRIMARY KEY (run_id, form_id, field)
) STRICT, WITHOUT ROWID;

-- The distinct failed rules of a run: field (NULL for none), type, rule, severity, message.
-- Results point here instead of repeating the texts on every row.
CREATE TABLE run_rules (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    form_id  INTEGER NOT NULL REFERENCES forms (id),
    field    TEXT,
    type     TEXT,                                          -- the field's type; NULL for form rules
    rule     TEXT NOT NULL,
    severity TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
    message  TEXT NOT NULL
) STRICT;
CREATE INDEX run_rules_by_run ON run_rules (run_id);

-- One row per failed rule of a failing entry, with the entry version judged. The hot table
-- of a run: no foreign key clauses (each would cost a lookup per inserted row); every row is
-- written by the run that owns run_id and rule_id.
CREATE TABLE run_results (
    run_id        INTEGER NOT NULL,
    entry_id      INTEGER NOT NULL,
    rule_id       INTEGER NOT NULL,
    entry_version INTEGER NOT NULL,
    PRIMARY KEY (run_id, entry_id, rule_id)
) STRICT, WITHOUT ROWID;
