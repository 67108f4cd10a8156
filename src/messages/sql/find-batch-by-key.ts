import type { Queryable } from '../../db/pool.js';

export async function findBatchByKey(db: Queryable, orgId: string, key: string): Promise<{ id: string; requestHash: string } | undefined> {
  const { rows } = await db.query<{ id: string; requestHash: string }>(
    `SELECT id, request_hash AS "requestHash" FROM batches
     WHERE org_id = $1 AND idempotency_key = $2 AND created_at > now() - interval '24 hours'`,
    [orgId, key],
  );
  return rows[0];
}
