import { newId } from '../../src/ids/ids.js';
import { insertSession } from '../../src/auth/sql/insert-session.js';
import { SESSION_COOKIE } from '../../src/auth/session-token.js';
import type { Role } from '../../src/auth/principal.js';
import type { TestApp } from './harness.js';

export interface SignedInMember {
  memberId: string;
  email: string;
  sessionId: string;
  /** The Cookie header of the signed-in browser. */
  cookie: string;
  /** Headers a same-origin dashboard page sends: the cookie and the Origin of the app. */
  headers: Record<string, string>;
}

/**
 * A member of `orgId` with `role`, signed in: the rows are written directly (no password), so
 * tests of any dashboard route need nothing from the sign-in flow itself.
 */
export async function signedInMember(app: TestApp, orgId: string, role: Role, email = `${newId('member').toLowerCase()}@example.org`): Promise<SignedInMember> {
  const memberId = newId('member');
  await app.ctx.db.query(`INSERT INTO members (id, email) VALUES ($1, $2)`, [memberId, email]);
  await app.ctx.db.query(`INSERT INTO memberships (org_id, member_id, role) VALUES ($1, $2, $3)`, [orgId, memberId, role]);
  const { id, token } = await insertSession(app.ctx.db, { memberId, orgId }, { idleMinutes: app.ctx.config.sessionIdleMinutes, maxHours: app.ctx.config.sessionMaxHours });
  const cookie = `${SESSION_COOKIE}=${token}`;
  return { memberId, email, sessionId: id, cookie, headers: { cookie, origin: new URL(app.url).origin } };
}
