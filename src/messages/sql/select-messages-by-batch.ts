import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from '../message.js';

export async function selectMessagesByBatch(db: Queryable, orgId: string, batchId: string): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND batch_id = $2 ORDER BY id`, [orgId, batchId]);
  return rows as MessageRow[];
}
