import type { Queryable } from '../../db/pool.js';

export interface PartToInsert {
  deviceId: string;
  groupKey: string;
  index: number;
  count: number;
  clientId: string;
  from: string;
  body: string;
  simSubscriptionId: number | null;
  receivedAt: Date;
}

/** Stores one part of a concatenated SMS (a part stored before changes nothing). */
export async function insertPart(tx: Queryable, p: PartToInsert): Promise<void> {
  await tx.query(
    `INSERT INTO incoming_parts (device_id, group_key, part_index, part_count, client_id, from_number, body, sim_subscription_id, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
    [p.deviceId, p.groupKey, p.index, p.count, p.clientId, p.from, p.body, p.simSubscriptionId, p.receivedAt],
  );
}
