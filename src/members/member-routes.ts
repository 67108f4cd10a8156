import type { AppContext } from '../context/app-context.js';
import { memberRoute, type AnyRoute } from '../http/router.js';
import { errors } from '../errors/errors.js';
import { inTransaction } from '../db/pool.js';
import { recordAudit } from '../audit/record-audit.js';
import { changeMembership, membershipOf, normalizeEmail } from './member-store.js';
import { belongsElsewhere } from './sql/belongs-elsewhere.js';
import { findMemberByEmail } from './sql/find-member-by-email.js';
import { membersOf } from './sql/select-members-of.js';
import { linkUrl } from './links.js';
import { createLink } from './sql/create-link.js';
import { openInvitations } from './sql/select-open-invitations.js';
import { revokeInvitation } from './sql/revoke-invitation.js';
import { endMemberSessions } from '../auth/sql/end-member-sessions.js';
import { dashboardBaseUrl } from './base-url.js';
import { ChangeRoleBody, InviteBody } from './schemas.js';

/** Owners manage who is in the organization: invitations, roles, removal, password-reset links. */
export function memberRoutes(ctx: AppContext): AnyRoute[] {
  const found = <T>(x: T | undefined | false): T => {
    if (!x) throw errors.notFound('member');
    return x;
  };
  return [
    memberRoute({
      method: 'get',
      path: '/dashboard/v1/members',
      auth: { role: 'owner' },
      summary: 'Members of the organization and open invitations',
      handler: async (req) => {
        const [members, invitations] = await Promise.all([membersOf(ctx.db, req.principal.orgId), openInvitations(ctx.db, req.principal.orgId)]);
        return {
          status: 200,
          body: { members, invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, createdAt: i.createdAt, expiresAt: i.expiresAt })) },
        };
      },
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/invitations',
      auth: { role: 'owner' },
      body: InviteBody,
      clientAddress: true,
      summary: 'Invite a person: the link is shown once, to be passed on',
      handler: async (req) => {
        const email = normalizeEmail(req.body.email);
        const existing = await findMemberByEmail(ctx.db, email);
        if (existing && (await membershipOf(ctx.db, req.principal.orgId, existing.id))) throw errors.conflict(`${email} is already a member of this organization`);
        const link = await createLink(ctx.db, { kind: 'invitation', orgId: req.principal.orgId, email, role: req.body.role, createdBy: req.principal.memberId });
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'invitation.created', target: link.id, detail: { email, role: req.body.role } });
        return {
          status: 201,
          body: { id: link.id, email, role: req.body.role, createdAt: new Date(), expiresAt: link.expiresAt, url: linkUrl(dashboardBaseUrl(ctx.config, req.headers), link.token) },
        };
      },
    }),
    memberRoute({
      method: 'delete',
      path: '/dashboard/v1/invitations/:invitationId',
      auth: { role: 'owner' },
      clientAddress: true,
      summary: 'Withdraw an invitation',
      handler: async (req) => {
        if (!(await revokeInvitation(ctx.db, req.principal.orgId, req.params.invitationId!))) throw errors.notFound('invitation');
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'invitation.revoked', target: req.params.invitationId });
        return { status: 204 };
      },
    }),
    memberRoute({
      method: 'patch',
      path: '/dashboard/v1/members/:memberId',
      auth: { role: 'owner' },
      body: ChangeRoleBody,
      clientAddress: true,
      summary: "Change a member's role",
      handler: async (req) => {
        const { orgId } = req.principal;
        const memberId = req.params.memberId!;
        await inTransaction(ctx.db, async (tx) => {
          found(await changeMembership(tx, orgId, memberId, req.body.role));
          await recordAudit(tx, req.principal, req.clientAddress, { action: 'member.role_changed', target: memberId, detail: { role: req.body.role } });
        });
        return { status: 200, body: found(await membershipOf(ctx.db, orgId, memberId)) };
      },
    }),
    memberRoute({
      method: 'delete',
      path: '/dashboard/v1/members/:memberId',
      auth: { role: 'owner' },
      clientAddress: true,
      summary: 'Remove a member from the organization; their sessions in it end at once',
      handler: async (req) => {
        const { orgId } = req.principal;
        const memberId = req.params.memberId!;
        await inTransaction(ctx.db, async (tx) => {
          found(await changeMembership(tx, orgId, memberId, null));
          await endMemberSessions(tx, memberId, 'removed', { orgId });
          await recordAudit(tx, req.principal, req.clientAddress, { action: 'member.removed', target: memberId });
        });
        return { status: 204 };
      },
    }),
    memberRoute({
      method: 'post',
      path: '/dashboard/v1/members/:memberId/password-reset',
      auth: { role: 'owner' },
      clientAddress: true,
      summary: 'A one-time link (1 hour) for a member to set a new password; only for an account in no other organization',
      handler: async (req) => {
        const member = found(await membershipOf(ctx.db, req.principal.orgId, req.params.memberId!));
        if (await belongsElsewhere(ctx.db, member.id, req.principal.orgId)) throw errors.accountOfAnotherOrganization();
        const link = await createLink(ctx.db, { kind: 'reset', orgId: req.principal.orgId, memberId: member.id, createdBy: req.principal.memberId });
        await recordAudit(ctx.db, req.principal, req.clientAddress, { action: 'member.reset_link_created', target: member.id });
        return { status: 201, body: { url: linkUrl(dashboardBaseUrl(ctx.config, req.headers), link.token), expiresAt: link.expiresAt } };
      },
    }),
  ];
}
