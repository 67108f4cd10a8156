import type { Queryable } from '../../db/pool.js';
import { type DeviceRow, DEVICE_COLUMNS } from '../device-store.js';

/** Newest first, like every list of the API; one device when deviceId is given. */
export async function selectDevices(db: Queryable, orgId: string, deviceId?: string): Promise<DeviceRow[]> {
  const { rows } = await db.query<DeviceRow>(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE org_id = $1 AND ($2::text IS NULL OR id = $2) ORDER BY id DESC`, [orgId, deviceId ?? null]);
  return rows;
}
