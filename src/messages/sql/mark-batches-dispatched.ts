import type { Queryable } from '../../db/pool.js';

export async function markBatchesDispatched(db: Queryable, ids: string[]): Promise<void> {
  await db.query('UPDATE batches SET dispatched_at = now() WHERE id = ANY($1::text[]) AND dispatched_at IS NULL', [ids]);
}
