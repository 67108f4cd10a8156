import type { Queryable } from '../../db/pool.js';
import { newIds } from '../../ids/ids.js';
import { epochMsArray, numberArray, textArray } from '../../db/array-params.js';
import type { InboundDevice } from '../inbound-device.js';

/** A received SMS ready to become one incoming_messages row (a single SMS or joined parts). */
export interface NewIncoming {
  clientId: string;
  from: string;
  body: string;
  simSubscriptionId: number | null;
  receivedAt: Date;
}

/** Inserts the messages (distinct clientIds) the device has not stored yet; the new rows' ids by clientId. */
export async function insertIncomingMessages(tx: Queryable, device: InboundDevice, unique: NewIncoming[]): Promise<{ id: string; client_id: string }[]> {
  const { rows } = await tx.query<{ id: string; client_id: string }>(
    `INSERT INTO incoming_messages (id, org_id, device_id, client_id, from_number, body, sim_subscription_id, received_at, retention_expires_at)
     SELECT t.id, $2, $3, t.client_id, t.from_number, t.body, t.sim, t.received_at, t.received_at + make_interval(days => $4::int)
     FROM (SELECT id, client_id, from_number, body, sim, to_timestamp(received_ms / 1000) AS received_at
           FROM unnest($1::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::float8[])
             AS r(id, client_id, from_number, body, sim, received_ms)) t
     ORDER BY t.id
     ON CONFLICT (device_id, client_id) DO NOTHING
     RETURNING id, client_id`,
    [
      textArray(newIds('incoming', unique.length)),
      device.orgId,
      device.id,
      device.retentionDays,
      textArray(unique.map((m) => m.clientId)),
      textArray(unique.map((m) => m.from)),
      textArray(unique.map((m) => m.body)),
      numberArray(unique.map((m) => m.simSubscriptionId)),
      epochMsArray(unique.map((m) => m.receivedAt)),
    ],
  );
  return rows;
}
