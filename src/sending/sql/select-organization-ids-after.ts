import type { Queryable } from '../../db/pool.js';

/** The next `limit` organization ids after `after`, in order. */
export async function selectOrganizationIdsAfter(db: Queryable, after: string, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM organizations WHERE id > $1 ORDER BY id LIMIT $2', [after, limit]);
  return rows.map((r) => r.id);
}
