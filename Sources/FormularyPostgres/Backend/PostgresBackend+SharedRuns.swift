import FormularyStore
/// Runs shared between processes (`validate --join`; tables `run_shares`, `run_chunks`,
/// `run_chunk_commits` of `migrations/postgres/0008_shared_runs.sql`).
///
/// Claims and lease renewals run outside the writers' advisory lock: a claim is one
/// statement that locks the first free chunk with `FOR UPDATE SKIP LOCKED`, so processes
/// claiming at once each get another chunk and none waits for another's claim or for a
/// chunk's results being written. Leases are measured on the server's clock
/// (`clock_timestamp()`), so the machines' clocks need not agree.
package extension PostgresBackend {
    var sharesRuns: Bool { true }

    /// The server's time as Formulary stores times (UTC ISO 8601 with milliseconds): the
    /// chunks' bookkeeping takes no time from the store's clock, whose readings name a run's
    /// start and end alike on both kinds of database.
    static let serverNow = """
        to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        """

    func sharedSnapshot(of scan: any EntryScanning) -> String? {
        (scan as? PostgresEntryScan)?.snapshot
    }

    func joinEntryScans(snapshot: String, count: Int) throws -> [any EntryScanning] {
        try (0..<max(1, count)).map { _ in try PostgresEntryScan(url: url, snapshot: snapshot) }
    }

    func insertRunShare(_ share: RunShare, chunks: [(afterID: Int64, throughID: Int64)]) throws {
        try connection.execute("""
            INSERT INTO run_shares (run_id, snapshot, lease_seconds, masked, created_at) VALUES ($1, $2, $3, $4, \(Self.serverNow))
            """, [.integer(share.runID), .text(share.snapshot), .real(share.leaseSeconds), .text(share.maskedText)])
        // Integers only, as array literals, in groups: one statement per few thousand chunks.
        func array(_ numbers: some Sequence<Int64>) -> PostgresValue {
            .text("{" + numbers.map(String.init).joined(separator: ",") + "}")
        }
        var start = 0
        while start < chunks.count {
            let group = chunks[start..<min(chunks.count, start + 5000)]
            try connection.execute("""
                INSERT INTO run_chunks (run_id, seq, after_id, through_id)
                SELECT $1, $2 + n, a, t FROM unnest($3::text::bigint[], $4::text::bigint[]) WITH ORDINALITY AS u(a, t, n)
                """, [.integer(share.runID), .int(start), array(group.map(\.afterID)), array(group.map(\.throughID))])
            start += group.count
        }
    }

    func runShare(runID: Int64) throws -> RunShare? {
        guard let row = try connection.execute(
            "SELECT snapshot, lease_seconds, masked FROM run_shares WHERE run_id = $1", [.integer(runID)]).first else {
            return nil
        }
        return RunShare(runID: runID, snapshot: try row.string(0), leaseSeconds: try row.double(1),
                        masked: RunShare.masked(from: try row.string(2)))
    }

    func claimRunChunk(runID: Int64, worker: String) throws -> RunChunk? {
        let rows = try connection.transaction(.readWrite) {
            try connection.execute("""
                WITH free AS (
                    SELECT c.run_id, c.seq FROM run_chunks AS c JOIN runs AS r ON r.id = c.run_id
                    WHERE c.run_id = $1 AND r.status = 'running'
                      AND (c.state = 'pending' OR (c.state = 'claimed' AND c.lease_until < clock_timestamp()))
                    ORDER BY c.seq LIMIT 1
                    FOR UPDATE OF c SKIP LOCKED)
                UPDATE run_chunks AS c
                SET state = 'claimed', claim_token = gen_random_uuid(), worker = $2, claims = c.claims + 1, claimed_at = \(Self.serverNow),
                    lease_until = clock_timestamp() + make_interval(secs => s.lease_seconds)
                FROM free, run_shares AS s
                WHERE c.run_id = free.run_id AND c.seq = free.seq AND s.run_id = c.run_id
                RETURNING c.seq, c.after_id, c.through_id, c.claim_token::text, c.claims
                """, [.integer(runID), .text(worker)])
        }
        guard let row = rows.first else { return nil }
        return RunChunk(seq: try row.int(0), afterID: try row.int64(1), throughID: try row.int64(2),
                        token: try row.string(3), claims: try row.int(4))
    }

    func renewRunChunk(runID: Int64, _ chunk: RunChunk) throws -> Bool {
        try connection.execute("""
            UPDATE run_chunks AS c SET lease_until = clock_timestamp() + make_interval(secs => s.lease_seconds)
            FROM run_shares AS s, runs AS r
            WHERE c.run_id = $1 AND c.seq = $2 AND c.claim_token = $3::text::uuid AND c.state = 'claimed'
              AND s.run_id = c.run_id AND r.id = c.run_id AND r.status = 'running'
            """, [.integer(runID), .int(chunk.seq), .text(chunk.token)]).affectedRows == 1
    }

    func commitRunChunk(runID: Int64, _ chunk: RunChunk, worker: String, counts: RunCounts) throws -> Bool {
        // The row lock this takes keeps a claimer from taking the chunk over until the
        // transaction ends; a claimer that got there first changed the token.
        let marked = try connection.execute("""
            UPDATE run_chunks SET state = 'done'
            WHERE run_id = $1 AND seq = $2 AND claim_token = $3::text::uuid AND state = 'claimed'
              AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND status = 'running')
            """, [.integer(runID), .int(chunk.seq), .text(chunk.token)]).affectedRows == 1
        guard marked else { return false }
        try connection.execute("""
            INSERT INTO run_chunk_commits (run_id, seq, claim_token, worker, done_at, entries_checked, entries_invalid,
                                           entries_warned, errors, warnings)
            VALUES ($1, $2, $3::text::uuid, $4, \(Self.serverNow), $5, $6, $7, $8, $9)
            """, [.integer(runID), .int(chunk.seq), .text(chunk.token), .text(worker),
                  .int(counts.entriesChecked), .int(counts.entriesInvalid), .int(counts.entriesWarned),
                  .int(counts.errors), .int(counts.warnings)])
        return true
    }

    func runChunkTally(runID: Int64) throws -> RunChunkTally {
        guard let row = try connection.execute("""
            SELECT count(*), count(*) FILTER (WHERE state = 'pending'),
                   count(*) FILTER (WHERE state = 'claimed' AND lease_until >= clock_timestamp()),
                   count(*) FILTER (WHERE state = 'claimed' AND lease_until < clock_timestamp()),
                   count(*) FILTER (WHERE state = 'done'),
                   (extract(epoch FROM min(lease_until) FILTER (WHERE state = 'claimed' AND lease_until >= clock_timestamp())
                                      - clock_timestamp()))::text,
                   (SELECT coalesce(sum(entries_checked), 0) FROM run_chunk_commits WHERE run_id = $1),
                   (SELECT coalesce(sum(entries_invalid), 0) FROM run_chunk_commits WHERE run_id = $1),
                   (SELECT coalesce(sum(entries_warned), 0) FROM run_chunk_commits WHERE run_id = $1),
                   (SELECT coalesce(sum(errors), 0) FROM run_chunk_commits WHERE run_id = $1),
                   (SELECT coalesce(sum(warnings), 0) FROM run_chunk_commits WHERE run_id = $1)
            FROM run_chunks WHERE run_id = $1
            """, [.integer(runID)]).first else { return RunChunkTally() }
        return RunChunkTally(total: try row.int(0), pending: try row.int(1), claimed: try row.int(2),
                             expired: try row.int(3), done: try row.int(4),
                             secondsToNextExpiry: try row.optionalString(5).flatMap(Double.init),
                             committed: try Self.counts(from: row, at: 6))
    }
}
