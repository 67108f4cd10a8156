import type { Queryable } from '../../db/pool.js';

/** Until the transaction ends, parts of one group of the device are stored one at a time. */
export async function lockPartGroup(tx: Queryable, deviceId: string, groupKey: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [deviceId, groupKey]);
}
