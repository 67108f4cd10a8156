import type { Role } from '../../auth/principal.js';
import type { Queryable } from '../../db/pool.js';

export interface MembershipView {
  id: string;
  email: string;
  role: Role;
  joinedAt: Date;
  lastSignInAt: Date | null;
}

export async function membersOf(db: Queryable, orgId: string): Promise<MembershipView[]> {
  const { rows } = await db.query<MembershipView>(
    `SELECT m.id, m.email, ms.role, ms.created_at AS "joinedAt", m.last_sign_in_at AS "lastSignInAt"
       FROM memberships ms JOIN members m ON m.id = ms.member_id WHERE ms.org_id = $1 ORDER BY m.email`,
    [orgId],
  );
  return rows;
}
