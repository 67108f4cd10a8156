import type { Queryable } from '../db/pool.js';
import { newIds } from '../ids/ids.js';
import type { InboundDevice } from './inbound-device.js';

/** A received SMS ready to become one incoming_messages row (a single SMS or joined parts). */
export interface NewIncoming {
  clientId: string;
  from: string;
  body: string;
  simSubscriptionId: number | null;
  receivedAt: Date;
}

/**
 * Inserts the messages not stored yet and answers the id of each clientId, new or old: a
 * phone's retry of an SMS already stored writes nothing. `created` lists only the new ids.
 */
export async function storeMessages(tx: Queryable, device: InboundDevice, items: NewIncoming[]): Promise<{ idByClientId: Map<string, string>; created: string[] }> {
  const unique = [...new Map(items.map((m) => [m.clientId, m])).values()];
  const idByClientId = new Map<string, string>();
  if (unique.length === 0) return { idByClientId, created: [] };
  const { rows } = await tx.query(
    `INSERT INTO incoming_messages (id, org_id, device_id, client_id, from_number, body, sim_subscription_id, received_at, retention_expires_at)
     SELECT t.id, $2, $3, t.client_id, t.from_number, t.body, t.sim, t.received_at, t.received_at + make_interval(days => $4::int)
     FROM unnest($1::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::timestamptz[])
       AS t(id, client_id, from_number, body, sim, received_at)
     ORDER BY t.id
     ON CONFLICT (device_id, client_id) DO NOTHING
     RETURNING id, client_id`,
    [
      newIds('incoming', unique.length),
      device.orgId,
      device.id,
      device.retentionDays,
      unique.map((m) => m.clientId),
      unique.map((m) => m.from),
      unique.map((m) => m.body),
      unique.map((m) => m.simSubscriptionId),
      unique.map((m) => m.receivedAt),
    ],
  );
  for (const r of rows) idByClientId.set(r.client_id, r.id);
  const created = rows.map((r) => r.id as string);
  const missing = unique.filter((m) => !idByClientId.has(m.clientId)).map((m) => m.clientId);
  if (missing.length > 0) {
    const old = await tx.query('SELECT id, client_id FROM incoming_messages WHERE device_id = $1 AND client_id = ANY($2::text[])', [device.id, missing]);
    for (const r of old.rows) idByClientId.set(r.client_id, r.id);
  }
  return { idByClientId, created };
}
