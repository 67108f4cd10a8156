import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../message.js';

export async function selectMessage(db: Queryable, orgId: string, id: string): Promise<MessageRow | undefined> {
  const { rows } = await db.query({
    name: 'select-message',
    text: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1 AND org_id = $2`,
    values: [id, orgId],
  });
  return rows[0] as MessageRow | undefined;
}
