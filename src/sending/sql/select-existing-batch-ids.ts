import type { Queryable } from '../../db/pool.js';

/** Which of these batches Postgres holds. */
export async function selectExistingBatchIds(db: Queryable, batchIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM batches WHERE id = ANY($1::text[])', [batchIds]);
  return new Set(rows.map((r) => r.id));
}
