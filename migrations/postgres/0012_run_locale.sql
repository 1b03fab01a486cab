-- 0012 (PostgreSQL): a run records the locale its messages are in. The dialect of
-- migrations/0012_run_locale.sql; see there.
ALTER TABLE runs ADD COLUMN locale TEXT;
