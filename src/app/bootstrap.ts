import type { AppContext } from '../context/app-context.js';
import { countOrganizations, insertOrganization, listOrganizations } from '../orgs/org-store.js';
import { createApiKey } from '../auth/api-key-admin.js';
import { SCOPES } from '../auth/principal.js';
import { createLink } from '../members/links.js';

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
 * While nobody can sign in to the dashboard (no member at all, a fresh install or one from
 * before members existed) and no setup link is open, a new one-time link that makes the first
 * owner of the oldest organization. Returns its token, once; null when there is nothing to do.
 */
export async function firstOwnerSetupToken(ctx: AppContext): Promise<string | null> {
  const { rows } = await ctx.db.query(
    `SELECT (SELECT count(*) FROM members)::int AS members,
            (SELECT count(*) FROM one_time_links WHERE kind = 'setup' AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now())::int AS open`,
  );
  const { members, open } = rows[0] as { members: number; open: number };
  if (members > 0 || open > 0) return null;
  const org = (await listOrganizations(ctx.db)).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
  if (!org) return null;
  return (await createLink(ctx.db, { kind: 'setup', orgId: org.id, role: 'owner' })).token;
}
