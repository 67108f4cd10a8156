import type { Queryable } from '../../db/pool.js';
import { SELECT_STATE, type DeviceDispatchState } from './select-device-state.js';

/** The state of each of these phones that exists (revoked ones too: their state says so). */
export async function selectDeviceStates(db: Queryable, deviceIds: string[]): Promise<DeviceDispatchState[]> {
  const { rows } = await db.query<DeviceDispatchState>(`${SELECT_STATE} WHERE d.id = ANY($1::text[])`, [deviceIds]);
  return rows;
}
