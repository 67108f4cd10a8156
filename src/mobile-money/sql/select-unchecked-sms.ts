import type { Queryable } from '../../db/pool.js';

/** Ids of SMS with a body never read for mobile money, stored more than graceMs ago: the parse job for them was lost. */
export async function selectUncheckedSms(db: Queryable, graceMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM incoming_messages
       WHERE money_checked_at IS NULL AND body IS NOT NULL AND created_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY id LIMIT $2`,
    [graceMs, limit],
  );
  return rows.map((r) => r.id);
}
