import type { AppContext } from '../context/app-context.js';
import { memberRoute, publicRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { inTransaction } from '../db/pool.js';
import { recordAudit, recordAuditInEveryOrganization } from '../audit/record-audit.js';
import type { MemberPrincipal } from '../auth/principal.js';
import { describeMe } from './me.js';
import { signIn } from './sign-in.js';
import { clearedSessionCookie, sessionCookie } from '../auth/session-token.js';
import { endMemberSessions } from '../auth/sql/end-member-sessions.js';
import { endSession } from '../auth/sql/end-session.js';
import { switchSessionOrganization } from '../auth/sql/switch-session-organization.js';
import { normalizeEmail } from './member-store.js';
import { findMember } from './sql/find-member.js';
import { organizationsOf } from './sql/select-organizations-of.js';
import { setPasswordHash } from './sql/set-password-hash.js';
import { checkNewPassword, hashPassword, verifyPassword } from './password.js';
import { checkPasswordLimited } from './password-attempts.js';
import { secureCookies } from './base-url.js';
import { ChangePasswordBody, SignInBody, SwitchOrganizationBody } from './schemas.js';

const asPrincipal = (s: { memberId: string; sessionId: string }, email: string, orgId: string): MemberPrincipal => ({
  kind: 'member',
  memberId: s.memberId,
  sessionId: s.sessionId,
  email,
  orgId,
  role: 'viewer',
  scopes: [],
});

/** Sign-in, sign-out, who am I, switching organization, changing one's password. */
export function sessionRoutes(ctx: AppContext): AnyRoute[] {
  const secure = secureCookies(ctx.config);
  const maxAge = ctx.config.sessionMaxHours * 3600;
  return [
    publicRoute({
      method: 'post',
      path: '/dashboard/v1/session',
      auth: { public: true },
      browser: true,
      clientAddress: true,
      body: SignInBody,
      summary: 'Sign in with email and password',
      handler: async (req) => {
        const email = normalizeEmail(req.body.email);
        const s = await signIn(ctx, email, req.body.password, { address: req.clientAddress, userAgent: req.headers.userAgent });
        const orgId = (await organizationsOf(ctx.db, s.memberId))[0]!.id;
        await recordAudit(ctx.db, asPrincipal(s, email, orgId), req.clientAddress, { action: 'member.signed_in', target: s.memberId });
        return { status: 200, body: await describeMe(ctx.db, { memberId: s.memberId, email, orgId }), headers: { 'set-cookie': sessionCookie(s.token, maxAge, secure) } };
      },
    }),
    memberRoute({
      method: 'delete',
      path: '/dashboard/v1/session',
      auth: { role: 'viewer' },
      clientAddress: true,
      summary: 'Sign out: this session ends on every API process',
      handler: async (req) => {
        await endSession(ctx.db, req.principal.sessionId, 'signed_out');
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'member.signed_out', target: req.principal.memberId });
        return { status: 204, headers: { 'set-cookie': clearedSessionCookie(secure) } };
      },
    }),
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/me',
      auth: { role: 'viewer' },
      summary: 'The signed-in member, their role and organizations',
      handler: async (req) => ({ status: 200, body: await describeMe(ctx.db, req.principal) }),
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/session/organization',
      auth: { role: 'viewer' },
      body: SwitchOrganizationBody,
      clientAddress: true,
      summary: 'Act in another organization of the member',
      handler: async (req) => {
        const orgs = await organizationsOf(ctx.db, req.principal.memberId);
        if (!orgs.some((o) => o.id === req.body.organizationId)) throw errors.notFound('organization');
        await switchSessionOrganization(ctx.db, req.principal.sessionId, req.body.organizationId);
        const now = { ...req.principal, orgId: req.body.organizationId };
        await recordAudit(ctx.db, now, req.clientAddress, { action: 'member.switched_organization', target: req.body.organizationId });
        return { status: 200, body: await describeMe(ctx.db, now) };
      },
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/password',
      auth: { role: 'viewer' },
      body: ChangePasswordBody,
      clientAddress: true,
      summary: "Change one's password; every other session of the member ends",
      handler: async (req) => {
        checkNewPassword(req.body.newPassword, 'newPassword');
        const me = await findMember(ctx.db, req.principal.memberId);
        const right = await checkPasswordLimited(ctx, { account: req.principal.email, address: req.clientAddress }, () => verifyPassword(req.body.currentPassword, me?.passwordHash));
        if (!right || !me) throw errors.invalid('currentPassword: wrong password');
        const hash = await hashPassword(req.body.newPassword);
        await inTransaction(ctx.db, async (tx) => {
          await setPasswordHash(tx, me.id, hash);
          await endMemberSessions(tx, me.id, 'password_changed', { except: req.principal.sessionId });
          await recordAuditInEveryOrganization(tx, me.id, { memberId: me.id, email: me.email }, req.clientAddress, { action: 'member.password_changed', target: me.id });
        });
        return { status: 204 };
      },
    }),
  ];
}
