import type { Queryable } from '../../db/pool.js';

/**
 * Ends the sessions of a member: all of them (a password changed or reset, but `except` the one
 * that changed it), or only those acting in `orgId` (removal from that organization: their
 * sessions in other organizations are theirs to keep).
 */
export async function endMemberSessions(db: Queryable, memberId: string, reason: string, only: { except?: string; orgId?: string } = {}): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE member_sessions SET ended_at = now(), ended_reason = $2
      WHERE member_id = $1 AND ended_at IS NULL AND ($3::text IS NULL OR id <> $3) AND ($4::text IS NULL OR org_id = $4)`,
    [memberId, reason, only.except ?? null, only.orgId ?? null],
  );
  return rowCount ?? 0;
}
