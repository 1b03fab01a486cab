-- 0010 (PostgreSQL alone): formulary_value and formulary_has find the one slot they need in
-- one pass over the bytes, instead of decoding every slot of the names and of the values into
-- two arrays (0005). Reports call formulary_value once per failure; the answers are 0005's
-- (and SQLite's, Database+EntryFunctions.swift), malformed bytes included. SQLite's functions
-- are compiled in and need no change, so this migration has no SQLite twin.

-- The 1-based position of the first slot of BYTES equal to NEEDLE (an absent slot for a NULL
-- needle), NULL when there is none. Reading stops at the end or at the first malformed slot.
CREATE FUNCTION formulary_slot_position(bytes bytea, needle bytea) RETURNS integer
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    total integer := length(bytes);
    wanted integer := length(needle);
    pos integer := 0;
    n integer := 0;
    tag bigint;
    shift integer;
    b integer;
BEGIN
    IF bytes IS NULL THEN
        RETURN NULL;
    END IF;
    WHILE pos < total LOOP
        tag := get_byte(bytes, pos);
        pos := pos + 1;
        IF tag >= 128 THEN
            -- A tag of more than one byte (a value of 127 bytes or more): the rare case.
            tag := tag & 127;
            shift := 7;
            LOOP
                IF pos >= total OR shift >= 63 THEN
                    RETURN NULL;
                END IF;
                b := get_byte(bytes, pos);
                pos := pos + 1;
                tag := tag | ((b & 127)::bigint << shift);
                EXIT WHEN b < 128;
                shift := shift + 7;
            END LOOP;
        END IF;
        n := n + 1;
        IF tag = 0 THEN
            IF needle IS NULL THEN
                RETURN n;
            END IF;
        ELSIF tag - 1 > total - pos THEN
            RETURN NULL;
        ELSE
            IF tag - 1 = wanted AND substring(bytes FROM pos + 1 FOR wanted) = needle THEN
                RETURN n;
            END IF;
            pos := pos + (tag - 1)::integer;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

-- The INDEX-th slot (1-based) of BYTES; NULL when it is absent, past the end, or at or past
-- the first malformed slot.
CREATE FUNCTION formulary_slot(bytes bytea, index integer) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    total integer := length(bytes);
    pos integer := 0;
    n integer := 0;
    tag bigint;
    shift integer;
    b integer;
BEGIN
    WHILE pos < total LOOP
        tag := get_byte(bytes, pos);
        pos := pos + 1;
        IF tag >= 128 THEN
            -- A tag of more than one byte (a value of 127 bytes or more): the rare case.
            tag := tag & 127;
            shift := 7;
            LOOP
                IF pos >= total OR shift >= 63 THEN
                    RETURN NULL;
                END IF;
                b := get_byte(bytes, pos);
                pos := pos + 1;
                tag := tag | ((b & 127)::bigint << shift);
                EXIT WHEN b < 128;
                shift := shift + 7;
            END LOOP;
        END IF;
        n := n + 1;
        IF tag <> 0 AND tag - 1 > total - pos THEN
            RETURN NULL;
        END IF;
        IF n = index THEN
            RETURN CASE WHEN tag = 0 THEN NULL ELSE substring(bytes FROM pos + 1 FOR (tag - 1)::integer) END;
        END IF;
        IF tag <> 0 THEN
            pos := pos + (tag - 1)::integer;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION formulary_value(fields bytea, vals bytea, name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT convert_from(formulary_slot(vals, formulary_slot_position(fields, convert_to(name, 'UTF8'))), 'UTF8')
$$;

CREATE OR REPLACE FUNCTION formulary_has(fields bytea, vals bytea, name text, value text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN name IS NULL OR value IS NULL THEN false
        WHEN convert_to(name, 'UTF8') = '\x2a'::bytea THEN coalesce(convert_to(value, 'UTF8') = ANY (formulary_slots(vals)), false)
        ELSE coalesce(formulary_slot(vals, formulary_slot_position(fields, convert_to(name, 'UTF8')))
                      = convert_to(value, 'UTF8'), false)
    END
$$;
