import type { Queryable } from '../../db/pool.js';

/** Inserts the batch row; false when the idempotency key already has a batch (a retried request). */
export async function insertBatch(db: Queryable, b: { id: string; orgId: string; idempotencyKey: string | null; requestHash: string; count: number }): Promise<boolean> {
  if (b.idempotencyKey !== null) await expireIdempotencyKey(db, b.orgId, b.idempotencyKey);
  const { rowCount } = await db.query(
    `INSERT INTO batches (id, org_id, idempotency_key, request_hash, message_count) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (org_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
    [b.id, b.orgId, b.idempotencyKey, b.requestHash, b.count],
  );
  return rowCount === 1;
}

/** A key is valid for 24 hours; after that the same key starts a new batch: its old batch lets go of it. */
export async function expireIdempotencyKey(db: Queryable, orgId: string, idempotencyKey: string): Promise<void> {
  await db.query(`UPDATE batches SET idempotency_key = NULL WHERE org_id = $1 AND idempotency_key = $2 AND created_at <= now() - interval '24 hours'`, [orgId, idempotencyKey]);
}
