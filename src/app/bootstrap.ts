import type { AppContext } from '../context/app-context.js';
import { countOrganizations } from '../orgs/sql/count-organizations.js';
import { insertOrganization } from '../orgs/sql/insert-organization.js';
import { listOrganizations } from '../orgs/sql/list-organizations.js';
import { createApiKey } from '../auth/api-key-admin.js';
import { SCOPES } from '../auth/principal.js';
import { createLink } from '../members/sql/create-link.js';
import { organizationHasOwner } from '../members/sql/organization-has-owner.js';
import { revokeSetupLinks } from '../members/sql/revoke-setup-links.js';

/** On an empty database: organization `default` and a key with every scope, returned once. */
export async function bootstrapDefaultOrg(ctx: AppContext): Promise<{ orgId: string; key: string } | null> {
  if ((await countOrganizations(ctx.db)) > 0) return null;
  // Several API replicas may start at once on an empty database: one creates the organization.
  const org = await insertOrganization(ctx.db, { name: 'default' }).catch((err: { code?: string }) => {
    if (err.code === '23505') return null;
    throw err;
  });
  if (!org) return null;
  const { secret } = await createApiKey(ctx, { orgId: org.id, name: 'first key', scopes: SCOPES });
  return { orgId: org.id, key: secret };
}

/**
 * A new one-time link that makes the first owner of `orgId`; setup links still open for it are
 * revoked, so only the link printed last works (the earlier ones may sit in an old terminal).
 */
export async function freshSetupToken(ctx: AppContext, orgId: string): Promise<{ token: string; expiresAt: Date }> {
  await revokeSetupLinks(ctx.db, orgId);
  const link = await createLink(ctx.db, { kind: 'setup', orgId, role: 'owner' });
  return { token: link.token, expiresAt: link.expiresAt };
}

/** Whether some member of the organization is its owner. */
export function hasOwner(ctx: AppContext, orgId: string): Promise<boolean> {
  return organizationHasOwner(ctx.db, orgId);
}

/**
 * While the oldest organization (the one `hafatra start` made) has no owner, every start prints
 * a fresh setup link: the one printed before may be lost with its terminal. Returns its token;
 * null once an owner exists.
 */
export async function firstOwnerSetupToken(ctx: AppContext): Promise<string | null> {
  const org = (await listOrganizations(ctx.db)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
  if (!org || (await hasOwner(ctx, org.id))) return null;
  return (await freshSetupToken(ctx, org.id)).token;
}
