import type { Queryable } from '../../db/pool.js';
import type { Role } from '../../auth/principal.js';

/** Adds the membership, or changes its role when it exists. */
export async function upsertMembership(db: Queryable, orgId: string, memberId: string, role: Role): Promise<void> {
  await db.query(
    `INSERT INTO memberships (org_id, member_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (org_id, member_id) DO UPDATE SET role = EXCLUDED.role`,
    [orgId, memberId, role],
  );
}
