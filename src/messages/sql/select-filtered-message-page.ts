import type { Queryable } from '../../db/pool.js';
import { messageColumns, type MessageRow, type MessageStatus } from '../message.js';

/**
 * A page filtered by phone and/or recipient (the dashboard's filters), newest first. A
 * recipient's messages are read in id order from message_recipients (migration 039), each joined
 * to its message; a phone's messages are read in id order with the filter, a phone holding a
 * large share of an organization's messages.
 */
export async function selectFilteredMessagePage(
  db: Queryable,
  q: { orgId: string; status?: MessageStatus; deviceId?: string; to?: string; before: string | null; limit: number },
): Promise<MessageRow[]> {
  const values: unknown[] = [q.orgId, q.limit + 1];
  const where = ['m.org_id = $1'];
  const add = (sql: string, v: unknown) => where.push(sql.replace('?', `$${values.push(v)}`));
  if (q.status) add('m.status = ?', q.status);
  if (q.deviceId) add('m.device_id = ?', q.deviceId);
  if (q.to === undefined) {
    if (q.before !== null) add('m.id < ?', q.before);
    const { rows } = await db.query(`SELECT ${messageColumns('m')} FROM messages m WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT $2`, values);
    return rows as MessageRow[];
  }
  where.push('r.org_id = $1');
  add('r.to_number = ?', q.to);
  if (q.before !== null) add('r.message_id < ?', q.before);
  const { rows } = await db.query(
    `SELECT ${messageColumns('m')} FROM message_recipients r JOIN messages m ON m.id = r.message_id
     WHERE ${where.join(' AND ')} ORDER BY r.message_id DESC LIMIT $2`,
    values,
  );
  return rows as MessageRow[];
}
