import type { Queryable } from '../db/pool.js';
import { newId } from '../ids/ids.js';
import { hashSessionToken, newSessionToken } from './session-token.js';
import type { Role } from './principal.js';

export interface SessionLimits {
  idleMinutes: number;
  maxHours: number;
}

export interface LiveSession {
  sessionId: string;
  memberId: string;
  email: string;
  orgId: string;
  role: Role;
}

/** A new session of a member in one organization; the token is returned once, for the cookie. */
export async function insertSession(db: Queryable, s: { memberId: string; orgId: string; address?: string; userAgent?: string }, limits: SessionLimits): Promise<{ id: string; token: string }> {
  const token = newSessionToken();
  const id = newId('memberSession');
  await db.query(
    `INSERT INTO member_sessions (token_hash, id, member_id, org_id, expires_at, address, user_agent)
     VALUES ($1, $2, $3, $4, now() + $5 * interval '1 hour', $6, $7)`,
    [hashSessionToken(token), id, s.memberId, s.orgId, limits.maxHours, s.address ?? null, s.userAgent?.slice(0, 256) ?? null],
  );
  return { id, token };
}

/**
 * The live session behind a token, with the member's current role in its organization: none when
 * the session ended, expired (idle or absolute) or the member left the organization. Touches
 * last_seen_at at most once a minute, in the same statement.
 */
export async function findLiveSession(db: Queryable, token: string, limits: SessionLimits): Promise<LiveSession | undefined> {
  const { rows } = await db.query(
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
  return rows[0] as LiveSession | undefined;
}

/** Ends one session (sign-out). */
export async function endSession(db: Queryable, sessionId: string, reason: string): Promise<void> {
  await db.query(`UPDATE member_sessions SET ended_at = now(), ended_reason = $2 WHERE id = $1 AND ended_at IS NULL`, [sessionId, reason]);
}

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

/** Moves a session to another organization of the same member (the role is read per request). */
export async function switchSessionOrganization(db: Queryable, sessionId: string, orgId: string): Promise<void> {
  await db.query(`UPDATE member_sessions SET org_id = $2 WHERE id = $1 AND ended_at IS NULL`, [sessionId, orgId]);
}

/**
 * Of these sessions, those still live, with the organization they act in and the member's role
 * there now: the live feed asks every few seconds, so a session ended or a membership removed or
 * changed on any process reaches the sockets it holds.
 */
export async function liveSessionsAmong(db: Queryable, sessionIds: string[], idleMinutes: number): Promise<Map<string, { orgId: string; role: Role }>> {
  const { rows } = await db.query(
    `SELECT s.id, s.org_id AS "orgId", ms.role
       FROM member_sessions s JOIN memberships ms ON ms.member_id = s.member_id AND ms.org_id = s.org_id
      WHERE s.id = ANY($1) AND s.ended_at IS NULL AND s.expires_at > now() AND s.last_seen_at > now() - $2 * interval '1 minute'`,
    [sessionIds, idleMinutes],
  );
  return new Map((rows as { id: string; orgId: string; role: Role }[]).map((r) => [r.id, { orgId: r.orgId, role: r.role }]));
}
