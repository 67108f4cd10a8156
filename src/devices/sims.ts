import type { Queryable } from '../db/pool.js';
import type { ReportedSim } from './schemas.js';

/**
 * Makes device_sims match what a heartbeat lists: listed cards are upserted by subscription id
 * (a card that comes back loses its removedAt), cards no longer listed get removedAt now. A
 * card listed twice counts once (the first listing wins).
 */
export async function syncSims(tx: Queryable, deviceId: string, reported: ReportedSim[]): Promise<void> {
  const first = new Map<number, ReportedSim>();
  for (const s of reported) if (!first.has(s.subscriptionId)) first.set(s.subscriptionId, s);
  const sims = [...first.values()];
  const col = <T>(f: (s: ReportedSim) => T) => sims.map(f);
  if (sims.length > 0) {
    await tx.query(
      `INSERT INTO device_sims (device_id, subscription_id, slot_index, carrier_name, display_name, phone_number, country_iso)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
       ON CONFLICT (device_id, subscription_id) DO UPDATE SET
         slot_index = EXCLUDED.slot_index, carrier_name = EXCLUDED.carrier_name, display_name = EXCLUDED.display_name,
         phone_number = EXCLUDED.phone_number, country_iso = EXCLUDED.country_iso, last_seen_at = now(), removed_at = NULL`,
      [
        deviceId,
        col((s) => s.subscriptionId),
        col((s) => s.slotIndex ?? null),
        col((s) => s.carrierName ?? null),
        col((s) => s.displayName ?? null),
        col((s) => s.phoneNumber || null),
        col((s) => s.countryIso?.toUpperCase() || null),
      ],
    );
  }
  await tx.query(
    `UPDATE device_sims SET removed_at = now() WHERE device_id = $1 AND removed_at IS NULL AND NOT (subscription_id = ANY($2::int[]))`,
    [deviceId, col((s) => s.subscriptionId)],
  );
}
