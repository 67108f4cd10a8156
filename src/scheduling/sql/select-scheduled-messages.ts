import type { Queryable } from '../../db/pool.js';
import type { MessageStatus } from '../../messages/message.js';

export interface ScheduledMessage {
  id: string;
  status: Extract<MessageStatus, 'accepted' | 'queued'>;
  expiresAt: Date;
}

/**
 * The messages of scheduled batches still to move (`accepted`) or moved but perhaps not on a
 * dispatch queue (`queued`: a mover died between its commit and its enqueue). Read through
 * messages_scheduled (migration 029) by (send_at, batch_id): the batch id alone is not indexed.
 */
export async function selectScheduledMessages(db: Queryable, batches: { batchId: string; sendAt: Date }[]): Promise<ScheduledMessage[]> {
  const { rows } = await db.query<ScheduledMessage>(
    `SELECT m.id, m.status, m.expires_at AS "expiresAt"
     FROM unnest($1::timestamptz[], $2::text[]) AS b(send_at, batch_id)
     JOIN messages m ON m.send_at = b.send_at AND m.batch_id = b.batch_id
     WHERE m.send_at IS NOT NULL AND m.status IN ('accepted', 'queued')`,
    [batches.map((b) => b.sendAt), batches.map((b) => b.batchId)],
  );
  return rows;
}
