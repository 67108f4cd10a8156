import type { Queryable } from '../../db/pool.js';

/** The subscription ids of the SIMs a device of the organization has in use; undefined when there is no such device. */
export async function selectReportedSims(db: Queryable, orgId: string, deviceId: string): Promise<number[] | undefined> {
  const { rows } = await db.query<{ sims: number[] }>(
    `SELECT ARRAY(SELECT subscription_id FROM device_sims s WHERE s.device_id = d.id AND s.removed_at IS NULL ORDER BY 1) AS sims
     FROM devices d WHERE d.id = $1 AND d.org_id = $2`,
    [deviceId, orgId],
  );
  return rows[0]?.sims;
}
