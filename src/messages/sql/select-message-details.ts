import type { Queryable } from '../../db/pool.js';
import { isoSql, messageJsonSql, type MessageEventRow, type MessageStatus } from '../message.js';

export type MessageEventJson = Omit<MessageEventRow, 'at'> & { at: string };

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
 * parameter would probe every partition for every id (migration 031). The API runs it on the hot
 * pool, which keeps that generic plan: left to choose, Postgres priced it above a custom plan
 * and planned the join over every partition at each call (350 against 95 µs of Postgres's time
 * for three ids, bench/README.md).
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
