import type { Queryable } from '../../db/pool.js';
import type { MessageEventRow } from '../message-row.js';

export type NewMessageEvent = MessageEventRow & { messageId: string };

export async function insertMessageEvents(db: Queryable, events: NewMessageEvent[]): Promise<void> {
  if (events.length === 0) return;
  const col = <K extends keyof NewMessageEvent>(k: K) => events.map((e) => e[k]);
  await db.query(
    `INSERT INTO message_events (message_id, from_status, to_status, source, code, device_id, at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])`,
    [col('messageId'), col('fromStatus'), col('toStatus'), col('source'), col('code'), col('deviceId'), col('at')],
  );
}
