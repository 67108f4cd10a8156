import { UsageError, type CommandArgs } from './command.js';
import { findOrganization } from '../orgs/sql/find-organization.js';
import type { AppContext } from '../context/app-context.js';

/** `--org ORG` (id or name) of the commands that act in one organization. */
export const orgOption = { org: { type: 'string' } } as const;

/** The organization --org names, `default` when none is given; a usage error when there is none. */
export async function orgOf(ctx: AppContext, args: CommandArgs) {
  const ref = typeof args.values.org === 'string' ? args.values.org : 'default';
  const org = await findOrganization(ctx.db, ref);
  if (!org) throw new UsageError(`no organization ${ref}`);
  return org;
}
