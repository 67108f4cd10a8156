import type { Queryable } from '../../db/pool.js';
import { hashSessionToken } from '../session-token.js';
import type { SessionLimits, LiveSession } from '../session-store.js';

/**
 * The live session behind a token, with the member's current role in its organization: none when
 * the session ended, expired (idle or absolute) or the member left the organization. Touches
 * last_seen_at at most once a minute, in the same statement.
 */
export async function findLiveSession(db: Queryable, token: string, limits: SessionLimits): Promise<LiveSession | undefined> {
  const { rows } = await db.query<LiveSession>(
    `WITH live AS (
       SELECT s.token_hash, s.id, s.member_id, s.org_id, s.last_seen_at
         FROM member_sessions s
        WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now()
          AND s.last_seen_at > now() - $2 * interval '1 minute'
     ), touched AS (
       UPDATE member_sessions SET last_seen_at = now()
        WHERE token_hash = (SELECT token_hash FROM live WHERE last_seen_at < now() - interval '1 minute')
     )
     SELECT live.id AS "sessionId", live.member_id AS "memberId", m.email, live.org_id AS "orgId", ms.role
       FROM live
       JOIN members m ON m.id = live.member_id
       JOIN memberships ms ON ms.member_id = live.member_id AND ms.org_id = live.org_id`,
    [hashSessionToken(token), limits.idleMinutes],
  );
  return rows[0];
}
