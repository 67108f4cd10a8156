import type { Queryable } from '../../db/pool.js';

/** The device's cards in use that are not among `listed` get removedAt now. */
export async function markSimsRemoved(tx: Queryable, deviceId: string, listed: number[]): Promise<void> {
  await tx.query(`UPDATE device_sims SET removed_at = now() WHERE device_id = $1 AND removed_at IS NULL AND NOT (subscription_id = ANY($2::int[]))`, [deviceId, listed]);
}
