-- 0005: where each entry version came from. The import that wrote a version already names
-- its file (`imports.source`); this keeps the 1-based line of the file on which the
-- version's record starts, so that reports can name each failure's source as FILE:LINE.
-- NULL for versions written before this migration and for versions no file line wrote.
-- When set, the line is part of the import's data digest (docs/storage.md), so a line
-- changed outside formulary shows in `audit verify`.
ALTER TABLE entries ADD COLUMN source_line INTEGER;
ALTER TABLE entry_versions ADD COLUMN source_line INTEGER;
