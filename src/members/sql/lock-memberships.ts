import type { Queryable } from '../../db/pool.js';
import type { Role } from '../../auth/principal.js';

/** The organization's memberships, locked until the transaction ends. */
export async function lockMemberships(db: Queryable, orgId: string): Promise<{ memberId: string; role: Role }[]> {
  const { rows } = await db.query<{ memberId: string; role: Role }>(`SELECT member_id AS "memberId", role FROM memberships WHERE org_id = $1 FOR UPDATE`, [orgId]);
  return rows;
}
