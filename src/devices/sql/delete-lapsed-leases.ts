import type { Queryable } from '../../db/pool.js';

export async function deleteLapsedLeases(tx: Queryable): Promise<void> {
  await tx.query('DELETE FROM api_processes WHERE lease_until < now()');
}
