import type { Queryable } from '../../db/pool.js';

/** A mobile phone as the withdrawal rules see it (devices.protocol, confirms_cancellation). */
export interface PhoneDoor {
  protocol: 'device' | 'mobile';
  confirmsCancellation: boolean;
}

export async function selectPhoneDoor(db: Queryable, deviceId: string): Promise<PhoneDoor | undefined> {
  const { rows } = await db.query<PhoneDoor>(`SELECT protocol, confirms_cancellation AS "confirmsCancellation" FROM devices WHERE id = $1`, [deviceId]);
  return rows[0];
}
