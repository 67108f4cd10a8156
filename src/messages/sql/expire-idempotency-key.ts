import type { Queryable } from '../../db/pool.js';

/** A key is valid for 24 hours; after that the same key starts a new batch: its old batch lets go of it. */
export async function expireIdempotencyKey(db: Queryable, orgId: string, idempotencyKey: string): Promise<void> {
  await db.query(`UPDATE batches SET idempotency_key = NULL WHERE org_id = $1 AND idempotency_key = $2 AND created_at <= now() - interval '24 hours'`, [orgId, idempotencyKey]);
}
