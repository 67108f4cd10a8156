import type { Queryable } from '../../db/pool.js';
import type { ScheduledBatch } from '../schedule.js';

/**
 * Batches with messages still `accepted`, in (sendAt, batch) order after `after`, due before
 * `dueBefore` (or at any time): one range of messages_scheduled (migration 029), read without the
 * table (every column it needs is in the index). The rebuild of a lost schedule reads them all;
 * the backstop reads the overdue ones.
 */
export async function selectWaitingBatches(db: Queryable, q: { after: ScheduledBatch | null; dueBefore: Date | null; limit: number }): Promise<ScheduledBatch[]> {
  const { rows } = await db.query<ScheduledBatch>(
    `SELECT batch_id AS "batchId", send_at AS "sendAt" FROM messages
     WHERE send_at IS NOT NULL AND status = 'accepted'
       AND ($1::timestamptz IS NULL OR (send_at, batch_id) > ($1::timestamptz, $2::text))
       AND ($3::timestamptz IS NULL OR send_at < $3::timestamptz)
     GROUP BY send_at, batch_id ORDER BY send_at, batch_id LIMIT $4`,
    [q.after?.sendAt ?? null, q.after?.batchId ?? '', q.dueBefore, q.limit],
  );
  return rows;
}
