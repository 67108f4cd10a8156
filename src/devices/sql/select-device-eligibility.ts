import type { Queryable } from '../../db/pool.js';

export interface DeviceEligibility {
  live: boolean;
  outbound: boolean;
  draining: boolean;
  /** The subscription ids of the SIMs in the phone now. */
  sims: number[];
}

/** What decides whether a named device of the organization may take a send; undefined when it has no such device. */
export async function selectDeviceEligibility(db: Queryable, deviceId: string, orgId: string): Promise<DeviceEligibility | undefined> {
  const { rows } = await db.query<DeviceEligibility>(
    `SELECT d.revoked_at IS NULL AS live, d.outbound_enabled AS outbound, d.draining,
       ARRAY(SELECT subscription_id FROM device_sims s WHERE s.device_id = d.id AND s.removed_at IS NULL) AS sims
     FROM devices d WHERE d.id = $1 AND d.org_id = $2`,
    [deviceId, orgId],
  );
  return rows[0];
}
