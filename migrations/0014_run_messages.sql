-- 0014: a run records which translations its messages came from (issue 29). See
-- docs/storage.md, "Validation runs".
--
-- runs.messages is the SHA-256 (hex) of the merged message catalogs of the run's locale (every
-- KEY = "TEXT" the built-in catalogs and the plugin folders gave, sorted): results carry
-- forward only from a run with the same locale and the same digest, so that a catalog edited
-- since is not read in the old words. NULL: a run without a locale (the types' own texts,
-- which their versions cover) and every run before this migration.
ALTER TABLE runs ADD COLUMN messages TEXT;
