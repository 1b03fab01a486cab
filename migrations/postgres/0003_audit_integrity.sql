-- 0003 (PostgreSQL): the audit log proves the data, not only itself. The dialect of
-- migrations/0003_audit_integrity.sql; see there and docs/storage.md, "Data digests".
--
-- The key is 32 bytes drawn from the server's strong random source: gen_random_uuid()
-- (built in since PostgreSQL 13, no extension needed) gives 122 random bits per UUID; the
-- SHA-256 of three of them spreads their 366 bits over the 32 bytes.
CREATE TABLE audit_key (
    id  BIGINT PRIMARY KEY CHECK (id = 1),
    key BYTEA NOT NULL CHECK (length(key) = 32)
);
INSERT INTO audit_key (id, key)
VALUES (1, sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')));

CREATE TRIGGER audit_key_no_update BEFORE UPDATE ON audit_key
FOR EACH ROW EXECUTE FUNCTION formulary_refuse('audit_key cannot be changed');

CREATE TRIGGER audit_key_no_delete BEFORE DELETE ON audit_key
FOR EACH ROW EXECUTE FUNCTION formulary_refuse('audit_key cannot be deleted');

CREATE TRIGGER audit_key_no_truncate BEFORE TRUNCATE ON audit_key
FOR EACH STATEMENT EXECUTE FUNCTION formulary_refuse('audit_key cannot be deleted');

CREATE TRIGGER audit_key_no_insert BEFORE INSERT ON audit_key
FOR EACH ROW EXECUTE FUNCTION formulary_refuse('audit_key cannot be replaced');

-- Appends only, in order: a record must follow the head. (A trigger's WHEN clause cannot
-- hold a subquery in PostgreSQL, so the function checks.)
CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    head audit_head%ROWTYPE;
BEGIN
    SELECT * INTO head FROM audit_head WHERE id = 1;
    IF NEW.seq IS DISTINCT FROM head.seq + 1 OR NEW.prev_hash IS DISTINCT FROM head.hash THEN
        RAISE EXCEPTION 'audit_log is append-only: a record must follow the newest one';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log
FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- The head moves only with an append (the trigger audit_log_head of 0001), to the newest record.
CREATE FUNCTION audit_head_follows_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM 1
       OR NEW.seq IS DISTINCT FROM (SELECT max(seq) FROM audit_log)
       OR NEW.hash IS DISTINCT FROM (SELECT hash FROM audit_log WHERE seq = NEW.seq) THEN
        RAISE EXCEPTION 'audit_head is kept by appends to audit_log only';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER audit_head_follows_log BEFORE UPDATE ON audit_head
FOR EACH ROW EXECUTE FUNCTION audit_head_follows_log();

CREATE TRIGGER audit_head_no_insert BEFORE INSERT ON audit_head
FOR EACH ROW EXECUTE FUNCTION formulary_refuse('audit_head cannot be replaced');
