import type { HotDb } from '../../db/pool.js';
import { MESSAGE_COLUMNS, MESSAGE_FIELDS, MESSAGE_STATUSES, type Message, type MessageStatus } from '../message.js';
import { ISO_TIMESTAMPS } from '../../db/timestamptz.js';
import { idFloor } from '../../ids/ids.js';
import { messageFromValues, type MessageValues } from '../message-values.js';

/**
 * Newest first; `before` is the last id of the previous page. Fetches limit + 1 to detect a next
 * page. Messages are indexed by (org_id, status, id DESC) only (migration 017): a page of one
 * status is one range of it, and an unfiltered page merges the ranges of every status, each
 * read in id order and only as far as the merge takes from it. Planning that merge over every
 * monthly partition (migration 031) costs more than running it, so each shape (status or all)
 * is a prepared statement on the hot pool, which keeps its generic plan (see
 * createHotDb and messagePageStatement).
 */
export async function selectMessagePage(hot: HotDb, q: PageQuery): Promise<Message[]> {
  const { rows } = await hot.query<MessageValues>({
    ...messagePageQuery(q),
    // A page's rows only become JSON: each is selected as a Message's values, in the schema's
    // order, its instants read as the ISO text the JSON carries.
    types: ISO_TIMESTAMPS,
    rowMode: 'array',
  });
  return rows.map(messageFromValues);
}

type PageQuery = { orgId: string; status?: MessageStatus; before: string | null; limit: number };

/** The prepared statement and values of one page, as selectMessagePage runs them (plan tests prepare the same). */
export function messagePageQuery(q: PageQuery): { name: string; text: string; values: [string, number, string] } {
  const name = `message-page-${q.status ?? 'all'}`;
  let text = PAGE_STATEMENTS.get(name);
  if (text === undefined) PAGE_STATEMENTS.set(name, (text = messagePageStatement(q.status, true, MESSAGE_COLUMNS, MESSAGE_FIELDS)));
  return { name, text, values: [q.orgId, q.limit + 1, q.before ?? idFloor('message', Date.now() + FIRST_PAGE_AHEAD_MS)] };
}

/**
 * A first page is read as the page before an id a day ahead of this process's clock: bounded, the
 * generic plan drops the months ahead (made empty in advance, migration 031) when it starts
 * instead of opening each of their indexes, one per status: Postgres's time per page of 101
 * rows on one connection fell from 307–333 to 247–267 µs. Ids carry their creation time
 * (src/ids/ids.ts), so only a message made by a server whose clock runs over a day ahead would
 * wait that long to show first.
 */
const FIRST_PAGE_AHEAD_MS = 24 * 60 * 60 * 1000;

/** Each page shape's text, built once (11 at most: a status or all). */
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
 * `shown` is what each row returns of them (all by default): the API's list names a Message's
 * fields in the schema's order, read as arrays and made Messages by messageFromValues, where a
 * copy of each row by name (toMessage) was a sixth of the API's time per page.
 */
export function messagePageStatement(status: MessageStatus | undefined, after: boolean, columns = MESSAGE_COLUMNS, shown = '*'): string {
  const range = (s: MessageStatus) => `(SELECT ${columns} FROM messages
       WHERE org_id = ANY(ARRAY[$1]::text[]) AND status = '${s}'${after ? ' AND id < $3' : ''} ORDER BY org_id, id DESC LIMIT $2)`;
  if (status) return shown === '*' ? range(status) : `SELECT ${shown} FROM ${range(status)} page ORDER BY "orgId", id DESC`;
  return `SELECT ${shown} FROM (${MESSAGE_STATUSES.map(range).join('\n UNION ALL ')}) page ORDER BY "orgId", id DESC LIMIT $2`;
}
