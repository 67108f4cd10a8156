import type pg from 'pg';

/** The Overview's tally of messages a fixture wrote straight to Postgres, as a send's statement writes it for its own (migration 040). */
export async function tallySeededMessages(db: pg.Pool | pg.Client, orgId: string): Promise<void> {
  await db.query(
    `INSERT INTO message_tally_deltas (org_id, hour, status, delta)
     SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, count(*) FROM messages WHERE org_id = $1 GROUP BY 1, 2, 3`,
    [orgId],
  );
}
