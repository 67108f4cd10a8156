import type { Queryable } from '../../db/pool.js';

export async function revokeInvitation(db: Queryable, orgId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE one_time_links SET revoked_at = now() WHERE id = $1 AND org_id = $2 AND kind = 'invitation' AND used_at IS NULL AND revoked_at IS NULL`, [id, orgId]);
  return (rowCount ?? 0) > 0;
}
