import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageRow, type MessageStatus } from '../message.js';

/**
 * A page filtered by phone and/or recipient (the dashboard's filters), newest first. The
 * recipient has its index (migration 023); a phone's messages are read in id order with the
 * filter, a phone holding a large share of an organization's messages.
 */
export async function selectFilteredMessagePage(
  db: Queryable,
  q: { orgId: string; status?: MessageStatus; deviceId?: string; to?: string; before: string | null; limit: number },
): Promise<MessageRow[]> {
  const values: unknown[] = [q.orgId, q.limit + 1];
  const where = ['org_id = $1'];
  const add = (sql: string, v: unknown) => where.push(sql.replace('?', `$${values.push(v)}`));
  if (q.status) add('status = ?', q.status);
  if (q.deviceId) add('device_id = ?', q.deviceId);
  if (q.to) add('to_number = ?', q.to);
  if (q.before !== null) add('id < ?', q.before);
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT $2`, values);
  return rows as MessageRow[];
}
