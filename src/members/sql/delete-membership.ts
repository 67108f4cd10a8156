import type { Queryable } from '../../db/pool.js';

export async function deleteMembership(db: Queryable, orgId: string, memberId: string): Promise<void> {
  await db.query(`DELETE FROM memberships WHERE org_id = $1 AND member_id = $2`, [orgId, memberId]);
}
