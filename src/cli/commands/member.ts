import { UsageError, printObject, printRows, type Command, type CommandArgs } from '../command.js';
import { orgOf } from '../org-option.js';
import { isRole } from '../../auth/principal.js';
import { membershipOf, normalizeEmail } from '../../members/member-store.js';
import { findMemberByEmail } from '../../members/sql/find-member-by-email.js';
import { membersOf } from '../../members/sql/select-members-of.js';
import { organizationsOf } from '../../members/sql/select-organizations-of.js';
import { linkUrl } from '../../members/links.js';
import { createLink } from '../../members/sql/create-link.js';
import { loadConfig } from '../../config/config.js';
import { recordAuditInEveryOrganization } from '../../audit/record-audit.js';
import { recordSystemAudit } from '../../audit/sql/record-system-audit.js';
import { freshSetupToken, hasOwner } from '../../app/bootstrap.js';

function emailOf(args: CommandArgs): string {
  if (typeof args.values.email !== 'string') throw new UsageError('--email is required');
  try {
    return normalizeEmail(args.values.email);
  } catch {
    throw new UsageError(`--email: ${args.values.email} is not an email address`);
  }
}

// The CLI talks to the database, not to the running API: links use HAFATRA_PUBLIC_URL or localhost.
const baseUrl = () => {
  const c = loadConfig();
  return c.publicUrl || `http://localhost:${c.port}`;
};

export const memberCommands: Command[] = [
  {
    path: ['member', 'setup-link'],
    summary: 'Print a new one-time link (24 hours) that makes the first owner of an organization; earlier ones stop working',
    usage: 'hafatra member setup-link [--org default] [--json]',
    options: { org: { type: 'string' } },
    async run(args, io, services) {
      const ctx = await services();
      const org = await orgOf(ctx, args);
      if (await hasOwner(ctx, org.id)) {
        throw new UsageError(`${org.name} already has an owner: an owner invites others, or use hafatra member invite --org ${org.name} --email E --role owner`);
      }
      const link = await freshSetupToken(ctx, org.id);
      await recordSystemAudit(ctx.db, org.id, { action: 'setup_link.created', target: org.id, detail: { by: 'cli' } });
      printObject(io, args.json, { organization: org.name, expiresAt: link.expiresAt, url: linkUrl(baseUrl(), link.token) });
      if (!args.json) io.err('Open it in a browser to make yourself the first owner: it works once.');
      return 0;
    },
  },
  {
    path: ['member', 'invite'],
    summary: 'Print a one-time invitation link (7 days) for a person to join an organization',
    usage: 'hafatra member invite [--org default] --email E --role owner|admin|viewer [--json]',
    options: { org: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } },
    async run(args, io, services) {
      const email = emailOf(args);
      const role = String(args.values.role ?? '');
      if (!isRole(role)) throw new UsageError('--role takes owner, admin or viewer');
      const ctx = await services();
      const org = await orgOf(ctx, args);
      const existing = await findMemberByEmail(ctx.db, email);
      if (existing && (await membershipOf(ctx.db, org.id, existing.id))) throw new UsageError(`${email} is already a member of ${org.name}`);
      const link = await createLink(ctx.db, { kind: 'invitation', orgId: org.id, email, role });
      await recordSystemAudit(ctx.db, org.id, { action: 'invitation.created', target: link.id, detail: { email, role, by: 'cli' } });
      printObject(io, args.json, { organization: org.name, email, role, expiresAt: link.expiresAt, url: linkUrl(baseUrl(), link.token) });
      if (!args.json) io.err('Pass the link on to the person: it is not shown again, and works once.');
      return 0;
    },
  },
  {
    path: ['member', 'reset-password'],
    summary: "Print a one-time link (1 hour) that sets a member's new password and ends their sessions (any account: the operator's power)",
    usage: 'hafatra member reset-password --email E [--json]',
    options: { email: { type: 'string' } },
    async run(args, io, services) {
      const email = emailOf(args);
      const ctx = await services();
      const member = await findMemberByEmail(ctx.db, email);
      const orgs = member ? await organizationsOf(ctx.db, member.id) : [];
      if (!member || orgs.length === 0) throw new UsageError(`no member ${email}`);
      const link = await createLink(ctx.db, { kind: 'reset', orgId: orgs[0]!.id, memberId: member.id });
      // The operator may reset any account; every organization it belongs to sees that it happened.
      await recordAuditInEveryOrganization(ctx.db, member.id, null, '', { action: 'member.reset_link_created', target: member.id, detail: { by: 'cli' } });
      printObject(io, args.json, { email, expiresAt: link.expiresAt, url: linkUrl(baseUrl(), link.token) });
      return 0;
    },
  },
  {
    path: ['member', 'list'],
    summary: "List an organization's members",
    usage: 'hafatra member list [--org default] [--json]',
    options: { org: { type: 'string' } },
    async run(args, io, services) {
      const ctx = await services();
      const org = await orgOf(ctx, args);
      printRows(io, args.json, (await membersOf(ctx.db, org.id)) as unknown as Record<string, unknown>[], ['id', 'email', 'role', 'joinedAt', 'lastSignInAt']);
      return 0;
    },
  },
];
