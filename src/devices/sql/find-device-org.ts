import type { Queryable } from '../../db/pool.js';

/** The organization a device belongs to (CLI commands name a device by id alone). */
export async function findDeviceOrg(db: Queryable, deviceId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ orgId: string }>('SELECT org_id AS "orgId" FROM devices WHERE id = $1', [deviceId]);
  return rows[0]?.orgId;
}
