import type { Queryable } from '../../db/pool.js';

/** Sets the given columns (`set`: assignments numbered from $3) of a device of the organization; false when there is none. */
export async function updateDeviceColumns(db: Queryable, orgId: string, deviceId: string, set: { sql: string; values: unknown[] }): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE devices SET ${set.sql}, updated_at = now() WHERE id = $1 AND org_id = $2`, [deviceId, orgId, ...set.values]);
  return rowCount !== 0;
}
