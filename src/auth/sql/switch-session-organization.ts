import type { Queryable } from '../../db/pool.js';

/** Moves a session to another organization of the same member (the role is read per request). */
export async function switchSessionOrganization(db: Queryable, sessionId: string, orgId: string): Promise<void> {
  await db.query(`UPDATE member_sessions SET org_id = $2 WHERE id = $1 AND ended_at IS NULL`, [sessionId, orgId]);
}
