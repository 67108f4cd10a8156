import type { Queryable } from '../../db/pool.js';

/** Whether the account is also a member of an organization other than `orgId`. */
export async function belongsElsewhere(db: Queryable, memberId: string, orgId: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM memberships WHERE member_id = $1 AND org_id <> $2 LIMIT 1`, [memberId, orgId]);
  return rows.length > 0;
}
