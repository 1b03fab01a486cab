-- 0011 (PostgreSQL): the audit log covers who may act. The dialect of
-- migrations/0011_audit_tokens.sql; see there. (PostgreSQL has no `INSERT OR REPLACE`; an
-- `ON CONFLICT DO UPDATE` fires the UPDATE guard.)
CREATE TRIGGER api_tokens_no_delete BEFORE DELETE ON api_tokens
FOR EACH ROW EXECUTE FUNCTION formulary_refuse('api_tokens keeps every token: revoke it instead (formulary tokens revoke NAME)');

CREATE TRIGGER api_tokens_no_truncate BEFORE TRUNCATE ON api_tokens
FOR EACH STATEMENT EXECUTE FUNCTION formulary_refuse('api_tokens keeps every token: revoke it instead (formulary tokens revoke NAME)');

CREATE FUNCTION api_tokens_revoke_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.revoked_at IS NOT NULL OR NEW.revoked_at IS NULL
       OR (NEW.id, NEW.name, NEW.scope, NEW.hash, NEW.created_at, NEW.created_by)
          IS DISTINCT FROM (OLD.id, OLD.name, OLD.scope, OLD.hash, OLD.created_at, OLD.created_by) THEN
        RAISE EXCEPTION 'api_tokens: a working token can be revoked, once; nothing else of a token changes';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER api_tokens_revoke_only BEFORE UPDATE ON api_tokens
FOR EACH ROW EXECUTE FUNCTION api_tokens_revoke_only();
