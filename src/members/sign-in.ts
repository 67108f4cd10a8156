import type { AppContext } from '../context/app-context.js';
import { errors } from '../errors/errors.js';
import { checkPasswordLimited } from './password-attempts.js';
import { verifyPassword } from './password.js';
import type { MemberRow } from './member-store.js';
import { findMemberByEmail } from './sql/find-member-by-email.js';
import { markSignedIn } from './sql/mark-signed-in.js';
import { organizationsOf } from './sql/select-organizations-of.js';
import { insertSession } from '../auth/sql/insert-session.js';

export interface NewSession {
  memberId: string;
  sessionId: string;
  token: string;
}

/**
 * Email and password → a new session in the member's first organization (by name). Whether the
 * email exists is never told: the same answer, after the same scrypt work.
 */
export async function signIn(ctx: AppContext, email: string, password: string, client: { address: string; userAgent?: string }): Promise<NewSession> {
  let member: MemberRow | undefined;
  let orgs: { id: string }[] = [];
  const right = await checkPasswordLimited(ctx, { account: email, address: client.address }, async () => {
    member = await findMemberByEmail(ctx.db, email);
    if (!(await verifyPassword(password, member?.passwordHash)) || !member) return false;
    orgs = await organizationsOf(ctx.db, member.id);
    return orgs.length > 0;
  });
  if (!right || !member) throw errors.signedOut('wrong email or password');
  return startSession(ctx, member.id, orgs[0]!.id, client);
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
  // Every session begins with a sign-in: a password, or a link that made the account (the first owner's).
  await markSignedIn(ctx.db, memberId);
  return { memberId, sessionId: id, token };
}
