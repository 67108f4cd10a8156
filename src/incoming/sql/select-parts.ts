import type { Queryable } from '../../db/pool.js';

export interface PartRow {
  part_index: number;
  client_id: string;
  from_number: string;
  body: string;
  sim_subscription_id: number | null;
  received_at: Date;
}

/** The parts of a group stored so far, in order. */
export async function selectParts(tx: Queryable, deviceId: string, groupKey: string): Promise<PartRow[]> {
  const { rows } = await tx.query<PartRow>(
    `SELECT part_index, client_id, from_number, body, sim_subscription_id, received_at
     FROM incoming_parts WHERE device_id = $1 AND group_key = $2 ORDER BY part_index`,
    [deviceId, groupKey],
  );
  return rows;
}
