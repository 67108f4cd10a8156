import type { Queryable } from '../../db/pool.js';

/** The cards in use and their carrier names, before a heartbeat changes them. */
export async function selectCarriersInUse(tx: Queryable, deviceId: string): Promise<Map<number, string | null>> {
  const { rows } = await tx.query<{ id: number; name: string | null }>('SELECT subscription_id AS id, carrier_name AS name FROM device_sims WHERE device_id = $1 AND removed_at IS NULL', [deviceId]);
  return new Map(rows.map((r) => [r.id, r.name]));
}
