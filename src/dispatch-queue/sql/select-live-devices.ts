import type { Queryable } from '../../db/pool.js';

/** Which of these devices are not revoked. */
export async function selectLiveDevices(db: Queryable, deviceIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM devices WHERE id = ANY($1::text[]) AND revoked_at IS NULL', [deviceIds]);
  return new Set(rows.map((r) => r.id));
}
