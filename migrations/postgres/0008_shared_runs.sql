-- 0008 (PostgreSQL only): validation runs shared between processes (`validate --join RUN`).
-- SQLite has no counterpart: a run on one file is one process's. See docs/scale-out.md,
-- "Running N validators".

-- What a process that joins a run needs besides the run's recorded versions: the snapshot
-- of the entries the run judges (exported by the starting process, which keeps it open
-- until the run ends), how long a claim lasts, and which fields the starter masked.
CREATE TABLE run_shares (
    run_id        BIGINT PRIMARY KEY REFERENCES runs (id),
    snapshot      TEXT NOT NULL,                    -- pg_export_snapshot() of the starter's readers
    lease_seconds DOUBLE PRECISION NOT NULL CHECK (lease_seconds > 0),
    masked        TEXT NOT NULL DEFAULT '',         -- 'FORM_ID<TAB>FIELD' lines judged as secure
    created_at    TEXT NOT NULL
);

-- The run's entries to judge, split by entry id (after_id < id <= through_id). A chunk is
-- pending, claimed (by claim_token until lease_until, server time) or done. A claim whose
-- lease expired may be taken over by another process: it gets a new token, and the old
-- holder's commit no longer matches.
CREATE TABLE run_chunks (
    run_id      BIGINT NOT NULL REFERENCES runs (id),
    seq         INTEGER NOT NULL,                   -- 1, 2, … in id order
    after_id    BIGINT NOT NULL,
    through_id  BIGINT NOT NULL,
    state       TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'claimed', 'done')),
    claim_token UUID,
    worker      TEXT,                               -- HOST:PID of the newest claimant
    lease_until TIMESTAMPTZ,
    claims      INTEGER NOT NULL DEFAULT 0,         -- how often it was claimed (more than 1: taken over)
    claimed_at  TEXT,
    PRIMARY KEY (run_id, seq),
    CHECK (after_id < through_id),
    CHECK (state = 'pending' OR (claim_token IS NOT NULL AND lease_until IS NOT NULL))
);
CREATE INDEX run_chunks_open ON run_chunks (run_id, seq) WHERE state <> 'done';

-- One row per committed chunk, written in the transaction that writes the chunk's results:
-- the primary key is the second guard (after the claim token) against a chunk written twice.
CREATE TABLE run_chunk_commits (
    run_id          BIGINT NOT NULL,
    seq             INTEGER NOT NULL,
    claim_token     UUID NOT NULL,
    worker          TEXT NOT NULL,
    done_at         TEXT NOT NULL,
    entries_checked BIGINT NOT NULL,
    entries_invalid BIGINT NOT NULL,
    entries_warned  BIGINT NOT NULL,
    errors          BIGINT NOT NULL,
    warnings        BIGINT NOT NULL,
    PRIMARY KEY (run_id, seq),
    FOREIGN KEY (run_id, seq) REFERENCES run_chunks (run_id, seq)
);

-- Processes writing one run find its failed rules by content, so that a rule is stored once
-- per run whoever fails it first.
CREATE INDEX run_rules_by_content ON run_rules (run_id, form_id, rule, md5(message));
