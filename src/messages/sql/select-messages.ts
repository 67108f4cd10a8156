import type { HotDb, Queryable } from '../../db/pool.js';
import { MESSAGE_COLUMNS, MESSAGE_STATUSES, isoSql, messageJsonSql, type MessageEventRow, type MessageRow, type MessageRowIso, type MessageStatus } from '../message.js';
import { ISO_TIMESTAMPS } from '../../db/timestamptz.js';

export async function selectMessage(db: Queryable, orgId: string, id: string): Promise<MessageRow | undefined> {
  const { rows } = await db.query({
    name: 'select-message',
    text: `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = $1 AND org_id = $2`,
    values: [id, orgId],
  });
  return rows[0] as MessageRow | undefined;
}

const EVENT_JSON = `json_build_object('fromStatus', e.from_status, 'toStatus', e.to_status, 'source', e.source,
  'code', e.code, 'deviceId', e.device_id, 'at', ${isoSql('e.at')})`;

/** A message for GET /v1/messages/{id}: the Message already as JSON text, and its stored timeline. */
export interface MessageDetailRow {
  id: string;
  orgId: string;
  createdAt: string;
  status: MessageStatus;
  messageJson: string;
  storedEvents: MessageEventJson[];
}

/**
 * GET /v1/messages/{id} for many requests at once (see TickBatcher): the rows and their stored
 * timelines in one statement, the Message built as JSON by Postgres (messageJsonSql), which the
 * API sends as it is. Parsing twenty columns and eight timestamps, then serializing them again,
 * was most of the API's work per read. Result i answers id i; undefined when not found. The
 * caller checks the organization (the read starts before the caller is authenticated). Each id is
 * joined on its own rather than matched by `id = ANY($1)`: the prepared statement's generic plan
 * then looks each one up in its month's partition only (pruned as it runs), where ANY of a
 * parameter would probe every partition for every id (migration 031).
 */
export async function selectMessageDetails(db: Queryable, ids: string[]): Promise<(MessageDetailRow | undefined)[]> {
  const { rows } = await db.query({
    name: 'select-message-details',
    text: `SELECT m.id, m.org_id AS "orgId", ${isoSql('m.created_at')} AS "createdAt", m.status, ${messageJsonSql('m')}::text AS "messageJson",
       (SELECT coalesce(json_agg(${EVENT_JSON} ORDER BY e.id), '[]') FROM message_events e WHERE e.message_id = m.id) AS "storedEvents"
     FROM unnest($1::text[]) AS q(id) JOIN messages m ON m.id = q.id`,
    values: [ids],
  });
  const byId = new Map((rows as MessageDetailRow[]).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}

export type MessageEventJson = Omit<MessageEventRow, 'at'> & { at: string };

/**
 * The timeline as the API shows it: the creation entry, implied by the row unless it was stored
 * (a member's send, an automatic resend, an opted-out recipient's message created failed), then the stored ones. The creation entered the status
 * the first stored change left (`accepted` for a scheduled send), else the message's status.
 */
export function timelineOf(createdAt: string, status: MessageStatus, stored: MessageEventJson[]): MessageEventJson[] {
  if (stored.some((e) => e.fromStatus === null)) return stored;
  const created = stored[0]?.fromStatus ?? status;
  return [{ fromStatus: null, toStatus: created, source: 'api', code: null, deviceId: null, at: createdAt }, ...stored];
}

/** The body of GET /v1/messages/{id}: the Message's JSON with its timeline added. */
export function messageDetailJson(row: MessageDetailRow): string {
  return `${row.messageJson.slice(0, row.messageJson.lastIndexOf('}'))}, "events" : ${JSON.stringify(timelineOf(row.createdAt, row.status, row.storedEvents))}}`;
}

export async function selectMessagesByIds(db: Queryable, ids: string[]): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE id = ANY($1::text[]) ORDER BY id`, [ids]);
  return rows as MessageRow[];
}

export async function selectMessagesByBatch(db: Queryable, orgId: string, batchId: string): Promise<MessageRow[]> {
  const { rows } = await db.query(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE org_id = $1 AND batch_id = $2 ORDER BY id`, [orgId, batchId]);
  return rows as MessageRow[];
}

/**
 * Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next
 * page. Messages are indexed by (org_id, status, id DESC) only (migration 017): a page of one
 * status is one range of it, and an unfiltered page merges the ranges of every status, each
 * read in id order and only as far as the merge takes from it. Planning that merge over every
 * monthly partition (migration 031) costs more than running it, so each shape (status or all,
 * first page or next) is a prepared statement on the hot pool, which keeps its generic plan (see
 * createHotDb and messagePageStatement).
 */
export async function selectMessagePage(hot: HotDb, q: { orgId: string; status?: MessageStatus; before: string | null; limit: number }): Promise<MessageRowIso[]> {
  const name = `message-page-${q.status ?? 'all'}-${q.before === null ? 'first' : 'next'}`;
  let text = PAGE_STATEMENTS.get(name);
  if (text === undefined) PAGE_STATEMENTS.set(name, (text = messagePageStatement(q.status, q.before !== null)));
  const { rows } = await hot.query({
    name,
    text,
    values: q.before === null ? [q.orgId, q.limit + 1] : [q.orgId, q.limit + 1, q.before],
    // A page's rows only become JSON: their instants are read as the ISO text it carries.
    types: ISO_TIMESTAMPS,
  });
  return rows as MessageRowIso[];
}

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

/** Each page shape's text, built once (22 at most: a status or all, first page or next). */
const PAGE_STATEMENTS = new Map<string, string>();

/**
 * The organization is matched as `org_id = ANY(ARRAY[$1])` and the rows ordered by (org_id, id),
 * which to a reader is `org_id = $1 ORDER BY id`. Written plainly, the organization is a constant
 * to the planner and the primary key yields the id order too; a generic plan made from statistics
 * where one organization holds nearly every row (a deployment with one big sender) then walks
 * each partition's primary key backwards, filtering by organization: seven seconds for a page of
 * a small organization with 10 million messages stored (bench/README.md, "Stored messages").
 * Written this way, only the (org_id, status, id DESC) index gives the order asked, whatever
 * the statistics, and each range starts at its organization and status. `columns` must name
 * `id` and `org_id AS "orgId"` (the merge orders by them); a reader of many rows names no more.
 */
export function messagePageStatement(status: MessageStatus | undefined, after: boolean, columns = MESSAGE_COLUMNS): string {
  const range = (s: MessageStatus) => `(SELECT ${columns} FROM messages
       WHERE org_id = ANY(ARRAY[$1]::text[]) AND status = '${s}'${after ? ' AND id < $3' : ''} ORDER BY org_id, id DESC LIMIT $2)`;
  if (status) return range(status);
  return `SELECT * FROM (${MESSAGE_STATUSES.map(range).join('\n UNION ALL ')}) page ORDER BY "orgId", id DESC LIMIT $2`;
}
