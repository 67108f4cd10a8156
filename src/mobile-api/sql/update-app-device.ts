import type { Queryable } from '../../db/pool.js';

/** Records a live phone's app version and whether it can cancel, and marks it seen; false when it is revoked or unknown. */
export async function updateAppDevice(tx: Queryable, deviceId: string, appVersion: string | null, confirmsCancellation: boolean): Promise<boolean> {
  const { rowCount } = await tx.query(`UPDATE devices SET app_version = $2, confirms_cancellation = $3, last_seen_at = now(), updated_at = now() WHERE id = $1 AND revoked_at IS NULL`, [
    deviceId,
    appVersion,
    confirmsCancellation,
  ]);
  return rowCount !== 0;
}
