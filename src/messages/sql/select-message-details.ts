import type { Queryable } from '../../db/pool.js';
import { ISO_TIMESTAMPS } from '../../db/timestamptz.js';
import { isoSql, messageColumns, type MessageEventRow, type MessageRowIso } from '../message.js';

export type MessageEventJson = Omit<MessageEventRow, 'at'> & { at: string };

const EVENT_JSON = `json_build_object('fromStatus', e.from_status, 'toStatus', e.to_status, 'source', e.source,
  'code', e.code, 'deviceId', e.device_id, 'at', ${isoSql('e.at')})`;

const TEXT = `SELECT ${messageColumns('m')},
       (SELECT coalesce(json_agg(${EVENT_JSON} ORDER BY e.id), '[]') FROM message_events e WHERE e.message_id = m.id) AS "storedEvents"
     FROM unnest($1::text[]) AS q(id) JOIN messages m ON m.id = q.id`;

/** A message for GET /v1/messages/{id}: its row, instants as the API's ISO text, and its stored timeline. */
export type MessageDetailRow = MessageRowIso & { storedEvents: MessageEventJson[] };

/**
 * GET /v1/messages/{id} for many requests at once (see TickBatcher): the rows and their stored
 * timelines in one statement. The row's instants come as the API's ISO text (ISO_TIMESTAMPS),
 * and the API writes the JSON: built by Postgres (json_build_object, an instant formatted by
 * to_char each), the same read cost Postgres twice its time (16-19 against 8-9 µs a request,
 * the API 4 µs more; bench/README.md). Result i answers id i; undefined when not found. The
 * caller checks the organization (the read starts before the caller is authenticated). Each id is
 * joined on its own rather than matched by `id = ANY($1)`: the prepared statement's generic plan
 * then looks each one up in its month's partition only (pruned as it runs), where ANY of a
 * parameter would probe every partition for every id (migration 031). The API runs it on the hot
 * pool, which keeps that generic plan: left to choose, Postgres priced it above a custom plan
 * and planned the join over every partition at each call (350 against 95 µs of Postgres's time
 * for three ids, bench/README.md).
 */
export async function selectMessageDetails(db: Queryable, ids: string[]): Promise<(MessageDetailRow | undefined)[]> {
  const { rows } = await db.query({
    name: 'select-message-details',
    text: TEXT,
    values: [ids],
    types: ISO_TIMESTAMPS,
  });
  const byId = new Map((rows as MessageDetailRow[]).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id));
}
