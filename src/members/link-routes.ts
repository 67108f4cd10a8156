import type { AppContext } from '../context/app-context.js';
import { publicRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { inTransaction, type DbClient } from '../db/pool.js';
import { recordAudit } from '../audit/record-audit.js';
import { describeMe } from './me.js';
import { startSession } from './sign-in.js';
import { sessionCookie } from './session-token.js';
import { endMemberSessions } from './session-store.js';
import { ensureMember, findMember, findMemberByEmail, normalizeEmail, setPasswordHash, upsertMembership } from './member-store.js';
import { findOpenLink, spendLink, type LinkRow } from './links.js';
import { checkNewPassword, hashPassword, verifyPassword } from './password.js';
import { secureCookies } from './base-url.js';
import { AcceptLinkBody, InspectLinkBody } from './schemas.js';

const gone = () => errors.notFound('link (it was already used, has expired, or was never made)');

/** Opening a one-time link (setup, invitation, password reset) and acting on it. */
export function linkRoutes(ctx: AppContext): AnyRoute[] {
  const secure = secureCookies(ctx.config);
  return [
    publicRoute({
      method: 'post',
      path: '/dashboard/v1/links/inspect',
      auth: { public: true },
      browser: true,
      body: InspectLinkBody,
      summary: 'What a one-time link is for',
      handler: async (req) => {
        const link = await findOpenLink(ctx.db, req.body.token);
        if (!link) throw gone();
        const email = link.email ?? (link.memberId ? ((await findMember(ctx.db, link.memberId))?.email ?? null) : null);
        const existing = email ? await findMemberByEmail(ctx.db, email) : undefined;
        return {
          status: 200,
          body: {
            kind: link.kind,
            email,
            role: link.role,
            expiresAt: link.expiresAt,
            organization: link.orgId ? { id: link.orgId, name: link.orgName } : null,
            existingMember: Boolean(existing?.passwordHash),
          },
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
      summary: 'Set a password through a one-time link (or prove it, for an existing member) and sign in',
      handler: async (req) => {
        const preview = await findOpenLink(ctx.db, req.body.token);
        if (!preview) throw gone();
        const memberId = await inTransaction(ctx.db, (tx) => accept(tx, preview, req.body));
        const member = (await findMember(ctx.db, memberId))!;
        const orgId = preview.orgId!;
        const s = await startSession(ctx, memberId, orgId, { address: req.clientAddress, userAgent: req.headers.userAgent });
        const principal = { kind: 'member' as const, memberId, email: member.email, orgId, sessionId: s.sessionId, role: preview.role ?? 'viewer', scopes: [] };
        await recordAudit(ctx.db, principal, req.clientAddress, { action: `link.${preview.kind}_accepted`, target: memberId, detail: { role: preview.role } });
        return {
          status: 200,
          body: await describeMe(ctx.db, { memberId, email: member.email, orgId }),
          headers: { 'set-cookie': sessionCookie(s.token, ctx.config.sessionMaxHours * 3600, secure) },
        };
      },
    }),
  ];
}

type Tx = DbClient;

/** Spends the link and does what it is for; returns the member it signs in. */
async function accept(tx: Tx, preview: LinkRow, body: { token: string; password: string; email?: string }): Promise<string> {
  if (preview.kind === 'reset') {
    checkNewPassword(body.password);
    const hash = await hashPassword(body.password);
    const link = await spendLink(tx, body.token);
    if (!link?.memberId) throw gone();
    await setPasswordHash(tx, link.memberId, hash);
    await endMemberSessions(tx, link.memberId, 'password_reset');
    return link.memberId;
  }
  // setup and invitation: the link names the email, or (setup) the person gives theirs.
  const email = preview.email ?? (body.email ? normalizeEmail(body.email) : undefined);
  if (!email) throw errors.invalid('email: required to set up the first owner');
  const existing = await findMemberByEmail(tx, email);
  let hash: string | undefined;
  if (existing?.passwordHash) {
    if (!(await verifyPassword(body.password, existing.passwordHash))) throw errors.invalid('password: wrong password for this existing member');
  } else {
    checkNewPassword(body.password);
    hash = await hashPassword(body.password);
  }
  const link = await spendLink(tx, body.token);
  if (!link?.orgId || !link.role) throw gone();
  const member = await ensureMember(tx, email);
  if (hash) await setPasswordHash(tx, member.id, hash);
  await upsertMembership(tx, link.orgId, member.id, link.role);
  return member.id;
}
