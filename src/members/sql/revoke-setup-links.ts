import type { Queryable } from '../../db/pool.js';

/** Revokes the organization's setup links still open. */
export async function revokeSetupLinks(db: Queryable, orgId: string): Promise<void> {
  await db.query(`UPDATE one_time_links SET revoked_at = now() WHERE org_id = $1 AND kind = 'setup' AND used_at IS NULL AND revoked_at IS NULL`, [orgId]);
}
