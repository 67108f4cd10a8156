import type { Infrastructure } from '../infrastructure/infrastructure.js';
import { errors } from '../errors/errors.js';
import { scopesOfRole, type MemberPrincipal } from './principal.js';
import { sessionTokenFromCookie } from './session-token.js';
import { findLiveSession } from './sql/find-live-session.js';

/**
 * Session cookie → member principal. Postgres is asked on every request (one indexed read): a
 * session ended on any API process, or a member removed, is refused on the next request here.
 */
export function sessionAuthenticator(ctx: Infrastructure) {
  const limits = { idleMinutes: ctx.config.sessionIdleMinutes, maxHours: ctx.config.sessionMaxHours };
  return async function authenticateSession(cookie: string | undefined): Promise<MemberPrincipal> {
    const token = sessionTokenFromCookie(cookie);
    if (!token) throw errors.signedOut();
    const s = await findLiveSession(ctx.db, token, limits);
    if (!s) throw errors.signedOut('your session has ended: sign in again');
    return { kind: 'member', orgId: s.orgId, memberId: s.memberId, email: s.email, sessionId: s.sessionId, role: s.role, scopes: scopesOfRole(s.role) };
  };
}
