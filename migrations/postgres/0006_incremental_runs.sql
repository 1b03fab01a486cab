-- 0006 (PostgreSQL): incremental validation runs. The dialect of
-- migrations/0006_incremental_runs.sql; see there and docs/storage.md, "Incremental runs".
--
-- Entries a keyed import changed, found without reading every entry; partial, so that
-- entries never updated (updated_in NULL, most of them) cost import nothing.
CREATE INDEX entries_by_update ON entries (form_id, updated_in) WHERE updated_in IS NOT NULL;

-- How many of the entries a run (and each form of it) checked were carried forward rather
-- than judged, and from which run. entries_checked still counts every entry.
ALTER TABLE runs ADD COLUMN entries_carried BIGINT NOT NULL DEFAULT 0;
ALTER TABLE run_forms ADD COLUMN entries_carried BIGINT NOT NULL DEFAULT 0;
ALTER TABLE run_forms ADD COLUMN carried_from BIGINT REFERENCES runs (id);
