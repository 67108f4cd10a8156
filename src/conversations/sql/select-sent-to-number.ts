import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../../messages/message.js';
import { recipientIds } from '../../messages/sql/recipient-ids.js';

/** The organization's newest messages to a number (E.164), newest first. */
export async function selectSentToNumber(db: Queryable, orgId: string, number: string, limit: number): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND id IN (${recipientIds('$1', '$2', '$3')}) ORDER BY id DESC`, [orgId, number, limit]);
  return rows;
}
