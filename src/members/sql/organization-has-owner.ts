import type { Queryable } from '../../db/pool.js';

/** Whether some member of the organization is its owner. */
export async function organizationHasOwner(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM memberships WHERE org_id = $1 AND role = 'owner' LIMIT 1`, [orgId]);
  return rows.length > 0;
}
