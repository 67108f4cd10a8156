import type { AppContext } from './context.js';
import { countOrganizations, insertOrganization } from '../orgs/org-store.js';
import { createApiKey } from '../auth/api-key-admin.js';
import { SCOPES } from '../auth/principal.js';

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
