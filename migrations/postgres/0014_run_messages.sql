-- 0014 (PostgreSQL): a run records which translations its messages came from. The dialect
-- of migrations/0014_run_messages.sql; see there.
ALTER TABLE runs ADD COLUMN messages TEXT;
