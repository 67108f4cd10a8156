import type { Queryable } from '../../db/pool.js';

/** Messages waiting for a phone (queued), per organization. */
export async function countQueuedByOrg(db: Queryable): Promise<{ orgId: string; n: number }[]> {
  const { rows } = await db.query<{ orgId: string; n: number }>(`SELECT org_id AS "orgId", count(*)::int AS n FROM messages WHERE status = 'queued' GROUP BY org_id`);
  return rows;
}
