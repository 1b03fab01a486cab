-- 0002: validation runs and their results (issue 4).
-- Passing entries cost no row: a run records, per form, which entries it judged (the id
-- range it went through); an entry it judged without a row in run_results passed.

CREATE TABLE runs (
    id              INTEGER PRIMARY KEY,
    started_at      TEXT NOT NULL,                          -- UTC ISO 8601
    ended_at        TEXT,
    actor           TEXT NOT NULL,
    today           TEXT NOT NULL,                          -- the YYYY-MM-DD the checks used
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete')),
    entries_checked INTEGER NOT NULL DEFAULT 0,
    entries_failing INTEGER NOT NULL DEFAULT 0,             -- with at least one error
    errors          INTEGER NOT NULL DEFAULT 0,
    warnings        INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Each form a run judged, with the form version used and how far it got: entries of the form
-- with id <= judged_through were judged (batches commit this together with their results).
CREATE TABLE run_forms (
    run_id          INTEGER NOT NULL REFERENCES runs (id),
    form_id         INTEGER NOT NULL REFERENCES forms (id),
    form_version_id INTEGER NOT NULL REFERENCES form_versions (id),
    judged_through  INTEGER NOT NULL DEFAULT 0,
    entries_checked INTEGER NOT NULL DEFAULT 0,
    entries_failing INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, form_id)
) STRICT, WITHOUT ROWID;

-- Every type version a run used (also built-in and folder types: they are recorded in
-- type_versions with their origin).
CREATE TABLE run_type_versions (
    run_id          INTEGER NOT NULL REFERENCES runs (id),
    type_version_id INTEGER NOT NULL REFERENCES type_versions (id),
    PRIMARY KEY (run_id, type_version_id)
) STRICT, WITHOUT ROWID;

-- One row per failed rule of a failing entry.
CREATE TABLE run_results (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id),
    entry_id      INTEGER NOT NULL REFERENCES entries (id),
    entry_version INTEGER NOT NULL,
    field         TEXT,                                      -- NULL for form-level rules
    rule          TEXT NOT NULL,
    severity      TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
    message       TEXT NOT NULL
) STRICT;
CREATE INDEX run_results_by_run ON run_results (run_id, entry_id);
CREATE INDEX run_results_by_entry ON run_results (entry_id, run_id);
