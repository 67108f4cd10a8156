import type { Queryable } from '../../db/pool.js';

export interface DevicePacing {
  pacingPerMinute: number | null;
  simDailyCap: number | null;
}

export async function selectDevicePacing(db: Queryable, orgId: string, deviceId: string): Promise<DevicePacing | undefined> {
  const { rows } = await db.query<DevicePacing>(`SELECT pacing_per_minute AS "pacingPerMinute", sim_daily_cap AS "simDailyCap" FROM devices WHERE id = $1 AND org_id = $2`, [deviceId, orgId]);
  return rows[0];
}
