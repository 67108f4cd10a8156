import type { Queryable } from '../../db/pool.js';

/** Up to `limit` queued messages past their expiry, the oldest expiry first. */
export async function selectExpiredQueued(db: Queryable, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM messages WHERE status = 'queued' AND expires_at <= now() ORDER BY expires_at LIMIT ${limit}`);
  return rows.map((r) => r.id);
}
