import type { AppContext } from '../context/app-context.js';
import { publicRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { inTransaction, type DbClient } from '../db/pool.js';
import { recordAudit, recordAuditInEveryOrganization } from '../audit/record-audit.js';
import { sessionAuthenticator } from '../auth/authenticate-session.js';
import type { MemberPrincipal } from '../auth/principal.js';
import { describeMe } from './me.js';
import { startSession } from './sign-in.js';
import { sessionCookie } from '../auth/session-token.js';
import { endMemberSessions } from '../auth/sql/end-member-sessions.js';
import { switchSessionOrganization } from '../auth/sql/switch-session-organization.js';
import { normalizeEmail } from './member-store.js';
import { belongsElsewhere } from './sql/belongs-elsewhere.js';
import { ensureMember } from './sql/ensure-member.js';
import { findMember } from './sql/find-member.js';
import { findMemberByEmail } from './sql/find-member-by-email.js';
import { setPasswordHash } from './sql/set-password-hash.js';
import { setPasswordHashIfUnset } from './sql/set-password-hash-if-unset.js';
import { upsertMembership } from './sql/upsert-membership.js';
import type { LinkRow } from './links.js';
import { findOpenLink } from './sql/find-open-link.js';
import { spendLink } from './sql/spend-link.js';
import { checkNewPassword, hashPassword } from './password.js';
import { secureCookies } from './base-url.js';
import { AcceptLinkBody, InspectLinkBody } from './schemas.js';

const gone = () => errors.notFound('link (it was already used, has expired, or was never made)');

/** Opening a one-time link (setup, invitation, password reset) and acting on it. */
export function linkRoutes(ctx: AppContext): AnyRoute[] {
  const secure = secureCookies(ctx.config);
  const authenticate = sessionAuthenticator(ctx);
  const signedInAs = (cookie: string | undefined): Promise<MemberPrincipal | undefined> => (cookie ? authenticate(cookie).catch(() => undefined) : Promise.resolve(undefined));
  return [
    publicRoute({
      method: 'post',
      path: '/dashboard/v1/links/inspect',
      auth: { public: true },
      browser: true,
      body: InspectLinkBody,
      summary: 'What a one-time link is for (never whether its address has an account)',
      handler: async (req) => {
        const link = await findOpenLink(ctx.db, req.body.token);
        if (!link) throw gone();
        const email = link.email ?? (link.memberId ? ((await findMember(ctx.db, link.memberId))?.email ?? null) : null);
        return {
          status: 200,
          body: { kind: link.kind, email, role: link.role, expiresAt: link.expiresAt, organization: link.orgId ? { id: link.orgId, name: link.orgName } : null },
        };
      },
    }),
    publicRoute({
      method: 'post',
      path: '/dashboard/v1/links/accept',
      auth: { public: true },
      browser: true,
      clientAddress: true,
      body: AcceptLinkBody,
      summary: 'Act on a one-time link: join while signed in, or set a new password, and sign in',
      handler: async (req) => {
        const preview = await findOpenLink(ctx.db, req.body.token);
        if (!preview) throw gone();
        const me = preview.kind === 'reset' ? undefined : await signedInAs(req.headers.cookie);
        const memberId = me ? await join(ctx, preview, req.body.token, me) : await setPasswordThroughLink(ctx, preview, req.body);
        const member = (await findMember(ctx.db, memberId))!;
        const orgId = preview.orgId!;
        const principal = { kind: 'member' as const, memberId, email: member.email, orgId, sessionId: me?.sessionId ?? '', role: preview.role ?? 'viewer', scopes: [] };
        const audit = { action: `link.${preview.kind}_accepted`, target: memberId, detail: { role: preview.role } };
        if (preview.kind === 'reset') await recordAuditInEveryOrganization(ctx.db, memberId, principal, req.clientAddress, audit);
        else await recordAudit(ctx.db, principal, req.clientAddress, audit);
        const body = await describeMe(ctx.db, { memberId, email: member.email, orgId });
        if (me) return { status: 200, body };
        const s = await startSession(ctx, memberId, orgId, { address: req.clientAddress, userAgent: req.headers.userAgent });
        return { status: 200, body, headers: { 'set-cookie': sessionCookie(s.token, ctx.config.sessionMaxHours * 3600, secure) } };
      },
    }),
  ];
}

/** A signed-in member joins the link's organization: no password is typed into a link page. */
async function join(ctx: AppContext, preview: LinkRow, token: string, me: MemberPrincipal): Promise<string> {
  if (preview.email && preview.email !== me.email) throw errors.linkForAnotherAddress();
  await inTransaction(ctx.db, async (tx) => {
    const link = await spendLink(tx, token);
    if (!link?.orgId || !link.role) throw gone();
    await upsertMembership(tx, link.orgId, me.memberId, link.role);
    await switchSessionOrganization(tx, me.sessionId, link.orgId);
  });
  return me.memberId;
}

/**
 * Signed out: a reset sets the account's new password; a setup or an invitation makes a new
 * account. An address that already has one is told to sign in first, and no password of an
 * existing account is ever checked here (that is the sign-in's, with its limits).
 */
async function setPasswordThroughLink(ctx: AppContext, preview: LinkRow, body: { token: string; password?: string; email?: string }): Promise<string> {
  if (body.password === undefined) throw errors.invalid('password: required (or sign in first, to join with your account)');
  const email = preview.kind === 'reset' ? undefined : (preview.email ?? (body.email ? normalizeEmail(body.email) : undefined));
  if (preview.kind !== 'reset' && !email) throw errors.invalid('email: required to set up the first owner');
  if (email && (await findMemberByEmail(ctx.db, email))?.passwordHash) throw errors.signInToJoin();
  checkNewPassword(body.password);
  const hash = await hashPassword(body.password);
  return inTransaction(ctx.db, (tx) => (email ? createAccount(tx, body.token, email, hash) : resetPassword(tx, body.token, hash)));
}

async function resetPassword(tx: DbClient, token: string, hash: string): Promise<string> {
  const link = await spendLink(tx, token);
  if (!link?.memberId || !link.orgId) throw gone();
  // An owner's link (not the operator's) works only while the account is theirs alone.
  if (link.createdBy && (await belongsElsewhere(tx, link.memberId, link.orgId))) throw errors.accountOfAnotherOrganization();
  await setPasswordHash(tx, link.memberId, hash);
  await endMemberSessions(tx, link.memberId, 'password_reset');
  return link.memberId;
}

async function createAccount(tx: DbClient, token: string, email: string, hash: string): Promise<string> {
  const link = await spendLink(tx, token);
  if (!link?.orgId || !link.role) throw gone();
  const member = await ensureMember(tx, email);
  // Another link for the same address may have made the account meanwhile: never overwrite it.
  if (!(await setPasswordHashIfUnset(tx, member.id, hash))) throw errors.signInToJoin();
  await upsertMembership(tx, link.orgId, member.id, link.role);
  return member.id;
}
