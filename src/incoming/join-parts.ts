import type { Queryable } from '../db/pool.js';
import type { InboundDevice } from './inbound-device.js';
import type { PreparedSms } from './prepared-sms.js';
import { storeMessages } from './store-messages.js';

export type PartOutcome = { incomingId: string; created: boolean } | { pending: true };

interface PartRow {
  part_index: number;
  client_id: string;
  from_number: string;
  body: string;
  sim_subscription_id: number | null;
  received_at: Date;
}

/**
 * Parts of one concatenated SMS share (device, from, reference, count). Phones reuse the 8- or
 * 16-bit reference, so the group only lives until it is joined: the parts are then deleted and
 * their clientIds kept in incoming_part_clients, which answers a part the phone sends again.
 */
export async function storePart(tx: Queryable, device: InboundDevice, item: PreparedSms): Promise<PartOutcome> {
  const { sms } = item;
  const part = sms.part!;
  const groupKey = JSON.stringify([sms.from, String(part.ref), part.count]);
  // Two parts of one group stored at once must not both see the other missing.
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [device.id, groupKey]);
  const joined = await tx.query('SELECT incoming_id FROM incoming_part_clients WHERE device_id = $1 AND client_id = $2', [device.id, sms.clientId]);
  if (joined.rows[0]) return { incomingId: joined.rows[0].incoming_id, created: false };

  await tx.query(
    `INSERT INTO incoming_parts (device_id, group_key, part_index, part_count, client_id, from_number, body, sim_subscription_id, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [device.id, groupKey, part.index, part.count, sms.clientId, sms.from, sms.body, sms.simSubscriptionId ?? null, item.receivedAt],
  );
  const { rows } = await tx.query(
    `SELECT part_index, client_id, from_number, body, sim_subscription_id, received_at
     FROM incoming_parts WHERE device_id = $1 AND group_key = $2 ORDER BY part_index`,
    [device.id, groupKey],
  );
  if (rows.length < part.count) return { pending: true };
  return joinParts(tx, device, groupKey, rows as PartRow[]);
}

async function joinParts(tx: Queryable, device: InboundDevice, groupKey: string, parts: PartRow[]): Promise<PartOutcome> {
  const first = parts[0]!;
  const clientId = `parts:${groupKey}:${first.client_id}`;
  const { idByClientId, created } = await storeMessages(tx, device, [
    {
      clientId,
      from: first.from_number,
      body: parts.map((p) => p.body).join(''),
      simSubscriptionId: first.sim_subscription_id,
      receivedAt: new Date(Math.min(...parts.map((p) => p.received_at.getTime()))),
    },
  ]);
  const incomingId = idByClientId.get(clientId)!;
  await tx.query(
    `INSERT INTO incoming_part_clients (device_id, client_id, incoming_id)
     SELECT $1, unnest($2::text[]), $3 ON CONFLICT DO NOTHING`,
    [device.id, parts.map((p) => p.client_id), incomingId],
  );
  await tx.query('DELETE FROM incoming_parts WHERE device_id = $1 AND group_key = $2', [device.id, groupKey]);
  return { incomingId, created: created.length > 0 };
}
