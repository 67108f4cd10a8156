import type { Queryable } from '../../../db/pool.js';

/** Failures still to be dealt with that failed at or before `before`, oldest first (the sweep's work list, migration 026's index). */
export async function selectUnsettledFailures(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query(`SELECT id FROM messages WHERE status = 'failed' AND auto_resends_left > 0 AND failed_at <= $1 ORDER BY failed_at LIMIT $2`, [before, limit]);
  return rows.map((r) => r.id as string);
}
