-- 0005 (PostgreSQL): where each entry version came from, and the functions reports read
-- stored values with. The dialect of migrations/0005_entry_sources.sql (see there) and of
-- the SQLite functions of Database+EntryFunctions.swift.
ALTER TABLE entries ADD COLUMN source_line BIGINT;
ALTER TABLE entry_versions ADD COLUMN source_line BIGINT;

-- The slots of encoded values or field names (EntryValues: per slot an unsigned LEB128
-- varint tag, 0 for an absent value, n + 1 for n bytes that follow), NULL for an absent
-- one. Reading stops at the end or at the first malformed slot, returning those before it,
-- as the SQLite functions read.
CREATE FUNCTION formulary_slots(bytes bytea) RETURNS bytea[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    total integer := length(bytes);
    pos integer := 0;
    slots bytea[] := '{}';
    tag bigint;
    shift integer;
    b integer;
BEGIN
    WHILE pos < total LOOP
        tag := 0;
        shift := 0;
        LOOP
            IF pos >= total OR shift >= 63 THEN
                RETURN slots;
            END IF;
            b := get_byte(bytes, pos);
            pos := pos + 1;
            tag := tag | ((b & 127)::bigint << shift);
            EXIT WHEN b < 128;
            shift := shift + 7;
        END LOOP;
        IF tag = 0 THEN
            slots := slots || NULL::bytea;
        ELSIF tag - 1 > total - pos THEN
            RETURN slots;
        ELSE
            slots := slots || substring(bytes FROM pos + 1 FOR (tag - 1)::integer);
            pos := pos + (tag - 1)::integer;
        END IF;
    END LOOP;
    RETURN slots;
END
$$;

-- The value of field NAME in the values VALS whose layout's field names are FIELDS; NULL
-- when the layout has no such field or the value is absent.
CREATE FUNCTION formulary_value(fields bytea, vals bytea, name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT convert_from((formulary_slots(vals))[array_position(formulary_slots(fields), convert_to(name, 'UTF8'))],
                        'UTF8')
$$;

-- Whether field NAME (any field for '*') holds exactly VALUE.
CREATE FUNCTION formulary_has(fields bytea, vals bytea, name text, value text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN name IS NULL OR value IS NULL THEN false
        WHEN convert_to(name, 'UTF8') = '\x2a'::bytea THEN coalesce(convert_to(value, 'UTF8') = ANY (formulary_slots(vals)), false)
        ELSE coalesce((formulary_slots(vals))[array_position(formulary_slots(fields), convert_to(name, 'UTF8'))]
                      = convert_to(value, 'UTF8'), false)
    END
$$;
