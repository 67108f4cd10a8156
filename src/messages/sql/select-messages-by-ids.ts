import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../message.js';

export async function selectMessagesByIds(db: Queryable, ids: string[]): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
  return rows as MessageRow[];
}
