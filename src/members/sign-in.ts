import { createHash } from 'node:crypto';
import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { countSignInFailures } from '../redis/scripts/count-sign-in-failures.js';
import { verifyPassword } from './password.js';
import { findMemberByEmail, markSignedIn, organizationsOf } from './member-store.js';
import { insertSession } from './session-store.js';

/** Failed sign-ins allowed in a window before that address or that email must wait. */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perAddress: 20, perEmail: 5 };

export interface NewSession {
  memberId: string;
  sessionId: string;
  token: string;
}

async function failures(ctx: AppContext, address: string, email: string, count: boolean): Promise<void> {
  const k = ctx.keys.signInFailures(address || 'unknown', createHash('sha256').update(email).digest('hex').slice(0, 32));
  const attempt = await countSignInFailures(ctx.redis, { byAddress: k.byAddress, byEmail: k.byEmail }, { ...SIGN_IN_LIMITS, countFailure: count });
  if (!attempt.allowed) {
    const minutes = Math.max(1, Math.ceil(attempt.waitMs / 60_000));
    throw errors.rateLimited(`too many sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, attempt.waitMs / 1000);
  }
}

/**
 * Email and password → a new session in the member's first organization (by name). Whether the
 * email exists is never told: the same answer, after the same scrypt work.
 */
export async function signIn(ctx: AppContext, email: string, password: string, client: { address: string; userAgent?: string }): Promise<NewSession> {
  await failures(ctx, client.address, email, false);
  const member = await findMemberByEmail(ctx.db, email);
  const ok = await verifyPassword(password, member?.passwordHash);
  const orgs = ok && member ? await organizationsOf(ctx.db, member.id) : [];
  if (!ok || !member || orgs.length === 0) {
    await failures(ctx, client.address, email, true);
    throw errors.signedOut('wrong email or password');
  }
  const session = await startSession(ctx, member.id, orgs[0]!.id, client);
  await markSignedIn(ctx.db, member.id);
  return session;
}

export async function startSession(ctx: AppContext, memberId: string, orgId: string, client: { address: string; userAgent?: string }): Promise<NewSession> {
  const { id, token } = await insertSession(
    ctx.db,
    { memberId, orgId, address: client.address, userAgent: client.userAgent },
    {
      idleMinutes: ctx.config.sessionIdleMinutes,
      maxHours: ctx.config.sessionMaxHours,
    },
  );
  return { memberId, sessionId: id, token };
}
