import type { Queryable } from '../../db/pool.js';

/** The organizations the account belongs to. */
export async function selectMemberOrgIds(db: Queryable, memberId: string): Promise<string[]> {
  const { rows } = await db.query<{ orgId: string }>(`SELECT org_id AS "orgId" FROM memberships WHERE member_id = $1`, [memberId]);
  return rows.map((r) => r.orgId);
}
