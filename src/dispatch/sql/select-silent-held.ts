import type { Queryable } from '../../db/pool.js';

/** Up to `limit` claimed or sending messages unchanged for `silentSeconds`, the oldest change first. */
export async function selectSilentHeld(db: Queryable, silentSeconds: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM messages WHERE status IN ('claimed', 'sending') AND updated_at < now() - $1 * interval '1 second'
     ORDER BY updated_at LIMIT ${limit}`,
    [silentSeconds],
  );
  return rows.map((r) => r.id);
}
