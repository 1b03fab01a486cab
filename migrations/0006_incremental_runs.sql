-- 0006: incremental validation runs (issue 12). See docs/storage.md, "Incremental runs".
--
-- A run may carry a form's results forward from the form's last complete run instead of
-- judging every entry again: it copies that run's rows for the entries that did not change
-- and judges only the others. What changed is found without reading every entry: entries
-- created since have higher ids, and entries a keyed import changed are in this index.
-- Partial: entries that were never updated (updated_in NULL, most of them) cost import
-- nothing.
CREATE INDEX entries_by_update ON entries (form_id, updated_in) WHERE updated_in IS NOT NULL;

-- How many of the entries a run (and each form of it) checked were carried forward rather
-- than judged, and from which run. entries_checked still counts every entry.
ALTER TABLE runs ADD COLUMN entries_carried INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_forms ADD COLUMN entries_carried INTEGER NOT NULL DEFAULT 0;
ALTER TABLE run_forms ADD COLUMN carried_from INTEGER REFERENCES runs (id);
