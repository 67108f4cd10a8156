import type { Queryable } from '../db/pool.js';
import type { ReportedSim } from './schemas.js';
import { markSimsRemoved } from './sql/mark-sims-removed.js';
import { selectCarriersInUse } from './sql/select-carriers-in-use.js';
import { upsertReportedSims } from './sql/upsert-reported-sims.js';

/**
 * Makes device_sims match what a heartbeat lists. A listed card is matched by subscription id:
 * a field it leaves out keeps the card's stored value and null clears it (the heartbeat's own
 * rule, field by field), and a card that comes back loses its removedAt. A new card gets null
 * for what it leaves out. Cards no longer listed get removedAt now. A card listed twice counts
 * once (the first listing wins). The heartbeat's transaction holds the device row, so two
 * heartbeats of one phone never interleave here.
 *
 * Answers whether the cards in use or their carrier names changed: the phone's dispatch state
 * (which SIM is on which network) must then be synced.
 */
export async function syncSims(tx: Queryable, deviceId: string, reported: ReportedSim[]): Promise<boolean> {
  const first = new Map<number, ReportedSim>();
  for (const s of reported) if (!first.has(s.subscriptionId)) first.set(s.subscriptionId, s);
  const sims = [...first.values()];
  const ids = sims.map((s) => s.subscriptionId);
  const before = await selectCarriersInUse(tx, deviceId);
  if (sims.length > 0) {
    await upsertReportedSims(tx, deviceId, sims);
  }
  await markSimsRemoved(tx, deviceId, ids);
  return sims.length !== before.size || sims.some((s) => !before.has(s.subscriptionId) || (s.carrierName !== undefined && s.carrierName !== before.get(s.subscriptionId)));
}
