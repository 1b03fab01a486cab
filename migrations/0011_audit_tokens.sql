-- 0011: the audit log covers who may act (see docs/storage.md, "Data digests").
--
-- From this migration on, `token.add` and `token.revoke` records hold a keyed digest of the
-- token's row (its id, name, scope, the SHA-256 of the token, when and by whom it was made,
-- when it was revoked), and `audit verify` compares every row of api_tokens with the newest
-- record of it. Applied to a database that already has tokens, the migration's data step
-- (Store.migrate, in the same transaction) appends one `audit.seal` record with the digests of
-- the rows as they stand: the baseline later records continue from.
--
-- A token's row is written once and then changes only when it is revoked. These guards refuse
-- everything else, as those of audit_log do: a guard against mistakes, not against someone who
-- can drop them (`audit verify` names a dropped guard, and the rows that differ from the log).
CREATE TRIGGER api_tokens_no_delete BEFORE DELETE ON api_tokens
BEGIN
    SELECT RAISE(ABORT, 'api_tokens keeps every token: revoke it instead (formulary tokens revoke NAME)');
END;

CREATE TRIGGER api_tokens_revoke_only BEFORE UPDATE ON api_tokens
WHEN OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL
  OR NEW.id IS NOT OLD.id OR NEW.name IS NOT OLD.name OR NEW.scope IS NOT OLD.scope
  OR NEW.hash IS NOT OLD.hash OR NEW.created_at IS NOT OLD.created_at OR NEW.created_by IS NOT OLD.created_by
BEGIN
    SELECT RAISE(ABORT, 'api_tokens: a working token can be revoked, once; nothing else of a token changes');
END;

-- `INSERT OR REPLACE` deletes the row it conflicts with without firing the DELETE trigger.
CREATE TRIGGER api_tokens_no_replace BEFORE INSERT ON api_tokens
WHEN EXISTS (SELECT 1 FROM api_tokens
             WHERE id = NEW.id OR hash = NEW.hash OR (name = NEW.name AND revoked_at IS NULL AND NEW.revoked_at IS NULL))
BEGIN
    SELECT RAISE(ABORT, 'api_tokens: a token cannot replace another');
END;
