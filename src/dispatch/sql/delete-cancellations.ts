import type { Queryable } from '../../db/pool.js';

export async function deleteCancellations(db: Queryable, deviceId: string, ids: string[]): Promise<void> {
  await db.query(`DELETE FROM mobile_cancellations WHERE device_id = $1 AND message_id = ANY($2::text[])`, [deviceId, ids]);
}
