-- 0009 (PostgreSQL): incremental runs share their base run's result rows instead of
-- copying them. The dialect of migrations/0009_shared_results.sql; see there and
-- docs/storage.md, "Incremental runs".
ALTER TABLE run_forms ADD COLUMN shares_from BIGINT REFERENCES runs (id);

CREATE TABLE run_rejudged (
    run_id   BIGINT NOT NULL,
    form_id  BIGINT NOT NULL,
    entry_id BIGINT NOT NULL,
    PRIMARY KEY (run_id, form_id, entry_id)
);

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
