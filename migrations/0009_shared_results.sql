-- 0009: incremental runs share their base run's result rows instead of copying them
-- (issue 12). See docs/storage.md, "Incremental runs".
--
-- A form of a run that carries results forward points at the run whose rows it shares
-- (shares_from: a run that judged the form in full, never one that shares itself), lists
-- in run_rejudged the entries of that run's extent it judged again (they changed since),
-- and keeps in run_results only its own rows: those of the entries it judged, and those it
-- took over from a run between the two. An unchanged store costs a run no result row.
ALTER TABLE run_forms ADD COLUMN shares_from INTEGER REFERENCES runs (id);

CREATE TABLE run_rejudged (
    run_id   INTEGER NOT NULL,
    form_id  INTEGER NOT NULL,
    entry_id INTEGER NOT NULL,
    PRIMARY KEY (run_id, form_id, entry_id)
) STRICT, WITHOUT ROWID;

-- Every result of every run: its own rows, and the shared rows of each form it shares
-- (those of the form's entries it did not judge again). Readers of a run's results read
-- this view; only a run's digest reads its own rows (run_results) alone.
CREATE VIEW run_results_all (run_id, entry_id, rule_id, entry_version) AS
SELECT run_id, entry_id, rule_id, entry_version FROM run_results
UNION ALL
SELECT rf.run_id, b.entry_id, b.rule_id, b.entry_version
FROM run_forms AS rf
JOIN run_results AS b ON b.run_id = rf.shares_from
JOIN run_rules AS br ON br.id = b.rule_id AND br.form_id = rf.form_id
WHERE rf.shares_from IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM run_rejudged AS j
                  WHERE j.run_id = rf.run_id AND j.form_id = rf.form_id AND j.entry_id = b.entry_id);
