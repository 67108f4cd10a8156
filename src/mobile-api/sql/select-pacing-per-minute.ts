import type { Queryable } from '../../db/pool.js';

/** A phone's own pacing (null: the default); undefined when there is no such device. */
export async function selectPacingPerMinute(db: Queryable, deviceId: string): Promise<{ pacing_per_minute: number | null } | undefined> {
  const { rows } = await db.query<{ pacing_per_minute: number | null }>('SELECT pacing_per_minute FROM devices WHERE id = $1', [deviceId]);
  return rows[0];
}
