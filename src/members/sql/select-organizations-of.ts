import type { Queryable } from '../../db/pool.js';
import type { Role } from '../../auth/principal.js';

/** The organizations of a member with their role there, by name. */
export async function organizationsOf(db: Queryable, memberId: string): Promise<{ id: string; name: string; role: Role }[]> {
  const { rows } = await db.query<{ id: string; name: string; role: Role }>(
    `SELECT o.id, o.name, ms.role FROM memberships ms JOIN organizations o ON o.id = ms.org_id WHERE ms.member_id = $1 ORDER BY o.name`,
    [memberId],
  );
  return rows;
}
