import type { AppContext } from './context.js';
import { countOrganizations, insertOrganization } from '../orgs/org-store.js';
import { createApiKey } from '../auth/api-key-admin.js';
import { SCOPES } from '../auth/principal.js';

/** On an empty database: organization `default` and a key with every scope, returned once. */
export async function bootstrapDefaultOrg(ctx: AppContext): Promise<{ orgId: string; key: string } | null> {
  if ((await countOrganizations(ctx.db)) > 0) return null;
  const org = await insertOrganization(ctx.db, { name: 'default' });
  const { secret } = await createApiKey(ctx, { orgId: org.id, name: 'first key', scopes: SCOPES });
  return { orgId: org.id, key: secret };
}
