import type { Queryable } from '../../db/pool.js';

/** Which of these devices are revoked in Postgres. */
export async function selectRevokedDevices(db: Queryable, deviceIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM devices WHERE id = ANY($1::text[]) AND revoked_at IS NOT NULL', [deviceIds]);
  return new Set(rows.map((r) => r.id));
}
