import type { Queryable } from '../../db/pool.js';

/** Every organization's id, in order. */
export async function selectOrganizationIds(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM organizations ORDER BY id');
  return rows.map((r) => r.id);
}
