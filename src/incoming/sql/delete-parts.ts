import type { Queryable } from '../../db/pool.js';

export async function deleteParts(tx: Queryable, deviceId: string, groupKey: string): Promise<void> {
  await tx.query('DELETE FROM incoming_parts WHERE device_id = $1 AND group_key = $2', [deviceId, groupKey]);
}
