import type { Queryable } from '../../db/pool.js';

/** Ends one session (sign-out). */
export async function endSession(db: Queryable, sessionId: string, reason: string): Promise<void> {
  await db.query(`UPDATE member_sessions SET ended_at = now(), ended_reason = $2 WHERE id = $1 AND ended_at IS NULL`, [sessionId, reason]);
}
