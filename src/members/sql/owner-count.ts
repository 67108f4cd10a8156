import type { Queryable } from '../../db/pool.js';

export async function ownerCount(db: Queryable, orgId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM memberships WHERE org_id = $1 AND role = 'owner'`, [orgId]);
  return rows[0]!.n;
}
