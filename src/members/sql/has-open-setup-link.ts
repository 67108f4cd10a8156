import type { Queryable } from '../../db/pool.js';

/** Whether an organization still waits for its first owner through an open setup link. */
export async function hasOpenSetupLink(db: Queryable, orgId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM one_time_links WHERE org_id = $1 AND kind = 'setup' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()`, [orgId]);
  return rows.length > 0;
}
