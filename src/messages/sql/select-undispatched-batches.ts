import type { Queryable } from '../../db/pool.js';

/** Batches committed but not on the dispatch queues after the grace period. */
export async function selectUndispatchedBatches(db: Queryable, graceMs: number, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM batches WHERE dispatched_at IS NULL AND created_at < now() - $1 * interval '1 millisecond' ORDER BY created_at LIMIT $2`, [
    graceMs,
    limit,
  ]);
  return rows.map((r) => r.id);
}
