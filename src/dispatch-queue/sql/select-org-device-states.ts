import type { Queryable } from '../../db/pool.js';
import { SELECT_STATE, type DeviceDispatchState } from './select-device-state.js';

/** The state of every live phone of the organization. */
export async function selectOrgDeviceStates(db: Queryable, orgId: string): Promise<DeviceDispatchState[]> {
  const { rows } = await db.query<DeviceDispatchState>(`${SELECT_STATE} WHERE d.org_id = $1 AND d.revoked_at IS NULL`, [orgId]);
  return rows;
}
