import type { DbClient } from '../../db/pool.js';

/** Locks the organization's row until the transaction ends: concurrent creations under a per-organization limit take turns. */
export async function lockOrganization(tx: DbClient, orgId: string): Promise<void> {
  await tx.query('SELECT 1 FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
}
