import type { Queryable } from '../../db/pool.js';

/** Names of the organization's live phones that are `wanted` or start with `wanted (`. */
export async function selectSimilarDeviceNames(db: Queryable, orgId: string, wanted: string): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(`SELECT name FROM devices WHERE org_id = $1 AND revoked_at IS NULL AND (name = $2 OR starts_with(name, $2 || ' ('))`, [orgId, wanted]);
  return rows.map((r) => r.name);
}
