import type { Queryable } from '../../db/pool.js';
import { newId } from '../../ids/ids.js';
import { hashSessionToken, newSessionToken } from '../session-token.js';
import type { SessionLimits } from '../session-store.js';

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
