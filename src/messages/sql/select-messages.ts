import type { Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, type MessageEventRow, type MessageRow } from '../message-row.js';
import type { MessageStatus } from '../schemas.js';

export async function selectMessage(db: Queryable, orgId: string, id: string): Promise<MessageRow | undefined> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1 AND org_id = $2`, [id, orgId]);
  return rows[0] as MessageRow | undefined;
}

export async function selectMessagesByIds(db: Queryable, ids: string[]): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
  return rows as MessageRow[];
}

export async function selectMessagesByBatch(db: Queryable, orgId: string, batchId: string): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND batch_id = $2 ORDER BY id`, [orgId, batchId]);
  return rows as MessageRow[];
}

/** Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next page. */
export async function selectMessagePage(
  db: Queryable,
  q: { orgId: string; status?: MessageStatus; before: string | null; limit: number },
): Promise<MessageRow[]> {
  const { rows } = await db.query(
    `SELECT ${MESSAGE_COLUMNS} FROM messages
     WHERE org_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR id < $3)
     ORDER BY id DESC LIMIT $4`,
    [q.orgId, q.status ?? null, q.before, q.limit + 1],
  );
  return rows as MessageRow[];
}

/**
 * A message's timeline. Its first entry, (none) → queued at creation, is implied by the message
 * row itself and not stored (a 500-recipient send would otherwise write 500 more rows).
 */
export async function selectMessageEvents(db: Queryable, message: Pick<MessageRow, 'id' | 'createdAt'>): Promise<MessageEventRow[]> {
  const stored = await selectStoredEvents(db, message.id);
  if (stored.some((e) => e.toStatus === 'queued')) return stored;
  return [{ fromStatus: null, toStatus: 'queued', source: 'api', code: null, deviceId: null, at: message.createdAt }, ...stored];
}

async function selectStoredEvents(db: Queryable, messageId: string): Promise<MessageEventRow[]> {
  const { rows } = await db.query(
    `SELECT from_status AS "fromStatus", to_status AS "toStatus", source, code, device_id AS "deviceId", at
     FROM message_events WHERE message_id = $1 ORDER BY id`,
    [messageId],
  );
  return rows as MessageEventRow[];
}
