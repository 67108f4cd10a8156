import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../../messages/message.js';

/** The messages of these batches still waiting (queued, or accepted for later). */
export async function selectWaitingBatchMessages(db: Queryable, batchIds: string[]): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE batch_id = ANY($1::text[]) AND status IN ('queued', 'accepted')`, [batchIds]);
  return rows;
}
