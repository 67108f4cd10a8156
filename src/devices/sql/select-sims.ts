import type { Queryable } from '../../db/pool.js';
import type { SimRow } from '../device-store.js';

/** The SIM cards of many devices in one query: cards in use first, then by subscription id. */
export async function selectSims(db: Queryable, deviceIds: string[]): Promise<Map<string, SimRow[]>> {
  const byDevice = new Map<string, SimRow[]>(deviceIds.map((id) => [id, []]));
  if (deviceIds.length === 0) return byDevice;
  const { rows } = await db.query<SimRow>(
    `SELECT device_id AS "deviceId", subscription_id AS "subscriptionId", slot_index AS "slotIndex",
       carrier_name AS "carrierName", display_name AS "displayName", phone_number AS "phoneNumber",
       country_iso AS "countryIso", first_seen_at AS "firstSeenAt", last_seen_at AS "lastSeenAt", removed_at AS "removedAt"
     FROM device_sims WHERE device_id = ANY($1)
     ORDER BY device_id, removed_at IS NOT NULL, subscription_id`,
    [deviceIds],
  );
  for (const r of rows) byDevice.get(r.deviceId)?.push(r);
  return byDevice;
}
