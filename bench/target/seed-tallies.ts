import type pg from 'pg';

/**
 * The Overview's tally of messages a fixture wrote straight to Postgres, as a send's statement
 * writes it for its own (migration 040). A schema from before 040 counts them with its insert
 * trigger already.
 */
export async function tallySeededMessages(db: pg.Pool | pg.Client, orgId: string): Promise<void> {
  const { rows } = await db.query(`SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'messages_tally_insert') AS counted`);
  if (rows[0].counted) return;
  await db.query(
    `INSERT INTO message_tally_deltas (org_id, hour, status, delta)
     SELECT org_id, date_trunc('hour', created_at, 'UTC'), status, count(*) FROM messages WHERE org_id = $1 GROUP BY 1, 2, 3`,
    [orgId],
  );
}
