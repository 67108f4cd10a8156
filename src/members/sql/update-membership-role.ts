import type { Queryable } from '../../db/pool.js';
import type { Role } from '../../auth/principal.js';

export async function updateMembershipRole(db: Queryable, orgId: string, memberId: string, role: Role): Promise<void> {
  await db.query(`UPDATE memberships SET role = $3 WHERE org_id = $1 AND member_id = $2`, [orgId, memberId, role]);
}
