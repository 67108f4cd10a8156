import type { Queryable } from '../../db/pool.js';

/** Removes the bodies of up to `batch` received SMS past their retention; how many. */
export async function purgeExpiredBodyBatch(db: Queryable, batch: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE incoming_messages SET body = NULL, body_purged_at = now()
       WHERE id IN (SELECT id FROM incoming_messages WHERE retention_expires_at <= now() AND body_purged_at IS NULL
                    ORDER BY retention_expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [batch],
  );
  return rowCount ?? 0;
}
