import type { Queryable } from '../db/pool.js';
import type { InboundDevice } from './inbound-device.js';
import type { PreparedSms } from './prepared-sms.js';
import { storeMessages } from './store-messages.js';
import { deleteParts } from './sql/delete-parts.js';
import { insertPart } from './sql/insert-part.js';
import { insertPartClients } from './sql/insert-part-clients.js';
import { lockPartGroup } from './sql/lock-part-group.js';
import { selectJoinedPart } from './sql/select-joined-part.js';
import { selectParts, type PartRow } from './sql/select-parts.js';

export type PartOutcome = { incomingId: string; created: boolean } | { pending: true };

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
  await lockPartGroup(tx, device.id, groupKey);
  const joined = await selectJoinedPart(tx, device.id, sms.clientId);
  if (joined) return { incomingId: joined, created: false };

  await insertPart(tx, {
    deviceId: device.id,
    groupKey,
    index: part.index,
    count: part.count,
    clientId: sms.clientId,
    from: sms.from,
    body: sms.body,
    simSubscriptionId: sms.simSubscriptionId ?? null,
    receivedAt: item.receivedAt,
  });
  const rows = await selectParts(tx, device.id, groupKey);
  if (rows.length < part.count) return { pending: true };
  return joinParts(tx, device, groupKey, rows);
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
  await insertPartClients(
    tx,
    device.id,
    parts.map((p) => p.client_id),
    incomingId,
  );
  await deleteParts(tx, device.id, groupKey);
  return { incomingId, created: created.length > 0 };
}
