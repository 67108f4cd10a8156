import type { Queryable } from '../../db/pool.js';

/** Orders, until the transaction ends, the records of one provider's reference in one organization. */
export async function lockReadingReference(tx: Queryable, orgId: string, providerReference: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [orgId, providerReference]);
}
