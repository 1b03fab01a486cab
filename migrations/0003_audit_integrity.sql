-- 0003: the audit log proves the data, not only itself (see docs/storage.md, "Data digests").
--
-- Every audited change records a digest of what it wrote (entries of an import, a run's rows,
-- a type or form event); `audit verify` recomputes them from the tables. The digests are
-- HMAC-SHA256 under this database's own random key, so that a digest in the audit log, which
-- is shown to people who may not read the data, cannot be used to guess a short value (a CVV
-- has only 1,000 candidates). The key travels with the data: it proves nothing against
-- someone who can write the database; the chain and a head kept elsewhere do that.
CREATE TABLE audit_key (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key BLOB NOT NULL CHECK (length(key) = 32)
) STRICT;
INSERT INTO audit_key (id, key) VALUES (1, randomblob(32));

CREATE TRIGGER audit_key_no_update BEFORE UPDATE ON audit_key
BEGIN
    SELECT RAISE(ABORT, 'audit_key cannot be changed');
END;

CREATE TRIGGER audit_key_no_delete BEFORE DELETE ON audit_key
BEGIN
    SELECT RAISE(ABORT, 'audit_key cannot be deleted');
END;

CREATE TRIGGER audit_key_no_insert BEFORE INSERT ON audit_key
BEGIN
    SELECT RAISE(ABORT, 'audit_key cannot be replaced');
END;

-- Appends only, in order: a record must follow the head. This also refuses
-- `INSERT OR REPLACE` of an existing record, which deletes the old row without firing the
-- DELETE trigger of 0001 (SQLite fires no delete triggers for REPLACE unless
-- recursive_triggers is on).
CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log
WHEN NEW.seq IS NOT (SELECT seq + 1 FROM audit_head WHERE id = 1)
  OR NEW.prev_hash IS NOT (SELECT hash FROM audit_head WHERE id = 1)
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only: a record must follow the newest one');
END;

-- The head moves only with an append (the trigger audit_log_head of 0001), to the newest record.
CREATE TRIGGER audit_head_follows_log BEFORE UPDATE ON audit_head
WHEN NEW.id IS NOT 1
  OR NEW.seq IS NOT (SELECT max(seq) FROM audit_log)
  OR NEW.hash IS NOT (SELECT hash FROM audit_log WHERE seq = NEW.seq)
BEGIN
    SELECT RAISE(ABORT, 'audit_head is kept by appends to audit_log only');
END;

CREATE TRIGGER audit_head_no_insert BEFORE INSERT ON audit_head
BEGIN
    SELECT RAISE(ABORT, 'audit_head cannot be replaced');
END;
