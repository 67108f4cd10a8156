import type { Queryable } from '../../db/pool.js';
import type { Role } from '../principal.js';

/**
 * Of these sessions, those still live, with the organization they act in and the member's role
 * there now: the live feed asks every few seconds, so a session ended or a membership removed or
 * changed on any process reaches the sockets it holds.
 */
export async function liveSessionsAmong(db: Queryable, sessionIds: string[], idleMinutes: number): Promise<Map<string, { orgId: string; role: Role }>> {
  const { rows } = await db.query<{ id: string; orgId: string; role: Role }>(
    `SELECT s.id, s.org_id AS "orgId", ms.role
       FROM member_sessions s JOIN memberships ms ON ms.member_id = s.member_id AND ms.org_id = s.org_id
      WHERE s.id = ANY($1) AND s.ended_at IS NULL AND s.expires_at > now() AND s.last_seen_at > now() - $2 * interval '1 minute'`,
    [sessionIds, idleMinutes],
  );
  return new Map(rows.map((r) => [r.id, { orgId: r.orgId, role: r.role }]));
}
