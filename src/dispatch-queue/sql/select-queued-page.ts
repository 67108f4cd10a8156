import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../../messages/message.js';

/** The next 5000 queued messages after `after`, by id. */
export async function selectQueuedPage(db: Queryable, after: string): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE status = 'queued' AND id > $1 ORDER BY id LIMIT 5000`, [after]);
  return rows;
}
